// The WCAG contrast ratio of every visible text inside ``root`` (an element): its colour and
// the backgrounds behind it composed from the root of the page down, through every
// ancestor's opacity; a gradient counts each of its colour stops (the worst is kept).
// Returns [{text, where, ratio, needed}], needed 3 for large text, else 4.5.
(root) => {
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const stops = (image) => (image.match(/rgba?\([^)]+\)/g) || []).map(parse);
  const blend = (top, under, alpha) =>
    top.slice(0, 3).map((c, i) => c * alpha + under[i] * (1 - alpha));
  const luminance = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const out = [];
  const seen = new Set();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!rect.width || !rect.height || style.visibility === "hidden") continue;
    if (el.closest(".sr, [hidden]")) continue; // for screen readers only
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    let backs = [[255, 255, 255]];
    let opacity = 1;
    for (const e of chain) {
      const s = getComputedStyle(e);
      opacity *= Number(s.opacity);
      const color = parse(s.backgroundColor);
      const layers = stops(s.backgroundImage);
      const options = layers.length ? layers : color && color[3] > 0 ? [color] : [];
      if (options.length) {
        backs = backs.flatMap((b) => options.map((o) => blend(o, b, o[3] * opacity)));
      }
    }
    const fg = parse(style.color);
    let worst = Infinity;
    for (const b of backs) worst = Math.min(worst, ratio(blend(fg, b, fg[3] * opacity), b));
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    out.push({
      text: node.textContent.trim().slice(0, 40),
      where: `${el.parentElement.className} > ${el.tagName.toLowerCase()}.${el.className}`,
      ratio: Math.round(worst * 100) / 100,
      needed: large ? 3 : 4.5,
    });
  }
  return out;
};
