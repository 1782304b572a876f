"""Whole rows read and written in plain SQL, for the site's hottest queries.

Every change of a game locks its row, reads its seats with their users, and writes the game
and the seats whose decision changed (``games.play``); every API request reads its token
with its user (``accounts.tokens``). Built by the ORM these queries cost several times
more to compile than to run: on PostgreSQL, reading four seats with their users took
5.5 ms of CPU where the same query written out, building the same instances, took 1.2 ms;
one UPDATE of two seats (a CASE per field) 4.4 ms. So they are written here, once per
model and database, from the model's own fields: values read go through the database's
converters and the fields' own (``from_db_value``), values written through the fields'
``pre_save`` and ``get_db_prep_save``, as the ORM does, so the instances built and the
values stored are the ORM's (``tests/guildhall_site/test_rows.py`` and
``tests/games/play/test_seats.py`` compare them field by field). Every other query goes
through the ORM.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class Table:
    """A model's concrete fields in the order its constructor takes them, and what turns
    each column read into the field's value."""

    model: type[Model]
    fields: tuple[Field[Any, Any], ...]
    attnames: tuple[str, ...]
    quoted_columns: tuple[str, ...]
    # Per field that needs any: its position, and its converters with their expression.
    converting: tuple[tuple[int, tuple[tuple[Converter, Any], ...]], ...]

    def columns(self, alias: str) -> str:
        """The select list of every field, from the table named ``alias``."""
        return ", ".join(f"{alias}.{c}" for c in self.quoted_columns)

    def build(self, row: Sequence[Any], start: int = 0) -> Model:
        """The instance of the columns of ``row`` from ``start`` on, as the ORM builds it."""
        values = list(row[start : start + len(self.fields)])
        for i, converters in self.converting:
            value = values[i]
            for convert, expression in converters:
                value = convert(value, expression, connection)
            values[i] = value
        return self.model.from_db(connection.alias, list(self.attnames), values)

    def value(self, attname: str, raw: Any) -> Any:
        """A column of field ``attname`` read elsewhere (a subquery's), as the field's value."""
        i = self.attnames.index(attname)
        for j, converters in self.converting:
            if j == i:
                for convert, expression in converters:
                    raw = convert(raw, expression, connection)
        return raw


@functools.cache
def _table(model: type[Model], vendor: str) -> Table:
    fields = tuple(model._meta.concrete_fields)
    converting = []
    for i, field in enumerate(fields):
        col = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if found:
            converting.append((i, tuple((convert, col) for convert in found)))
    attnames = tuple(f.attname for f in fields)
    quoted_columns = tuple(column(model, f.name) for f in fields)
    return Table(model, fields, attnames, quoted_columns, tuple(converting))


def table(model: type[Model]) -> Table:
    return _table(model, connection.vendor)


def quoted(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[Model], name: str) -> str:
    """The quoted column of ``model``'s field ``name``."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.column  # a column of the model's own
    return connection.ops.quote_name(field.column)


def _pk_column(model: type[Model]) -> str:
    pk = model._meta.pk
    assert pk is not None and pk.column  # every model here has one
    return connection.ops.quote_name(pk.column)


def get(model: type[M], pk: Any) -> M | None:
    """``model``'s row ``pk`` (as its primary key field takes it), as
    ``model.objects.get(pk=pk)`` builds it; None when there is none."""
    return _one(model, pk, lock=False)


def lock(model: type[M], pk: Any) -> M | None:
    """``model``'s row ``pk``, locked until the transaction ends (``select_for_update``
    where the database has it); None when there is none."""
    if connection.get_autocommit():
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    return _one(model, pk, lock=True)


def _one(model: type[M], pk: Any, *, lock: bool) -> M | None:
    t = table(model)
    sql = f"SELECT {t.columns('t')} FROM {quoted(model)} t WHERE t.{_pk_column(model)} = %s"
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    field = model._meta.pk
    assert field is not None  # every model here has one
    key = field.to_python(pk)
    if isinstance(key, int) and not _fits(field, key):
        return None  # as the ORM: no such row, where the database would refuse the number
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        row = cursor.fetchone()
    return None if row is None else t.build(row)  # type: ignore[return-value]


def joined(
    model: type[M], related: str, by: str, value: Any, *, extra: str = "", order_by: str = ""
) -> list[tuple[M, Any]]:
    """The rows of ``model`` whose field ``by`` is ``value``, each with the row its foreign
    key ``related`` points to, known to it as ``select_related(related)`` makes it; and the
    value of ``extra``, one more select expression on the model's table (alias ``m``), or
    None. In the order of field ``order_by``, if one is named."""
    t = table(model)
    field = model._meta.get_field(related)
    other = table(field.related_model)  # type: ignore[arg-type]
    sql = _joined_sql(model, related, by, extra, order_by, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        found = cursor.fetchall()
    out = []
    for row in found:
        obj = t.build(row)
        field.set_cached_value(obj, other.build(row, len(t.fields)))  # type: ignore[union-attr]
        out.append((obj, row[-1] if extra else None))
    return out  # type: ignore[return-value]


@functools.cache
def _joined_sql(
    model: type[Model], related: str, by: str, extra: str, order_by: str, vendor: str
) -> str:
    field = model._meta.get_field(related)
    other = field.related_model
    assert isinstance(other, type)  # a foreign key's model
    sql = (
        f"SELECT {table(model).columns('m')}, {table(other).columns('r')}"
        f"{', ' + extra if extra else ''}"
        f" FROM {quoted(model)} m JOIN {quoted(other)} r"
        f" ON r.{_pk_column(other)} = m.{column(model, related)}"
        f" WHERE m.{column(model, by)} = %s"
    )
    return sql + (f" ORDER BY m.{column(model, order_by)}" if order_by else "")


def _fits(field: Field[Any, Any], key: int) -> bool:
    low, high = connection.ops.integer_field_range(field.get_internal_type())
    return (low is None or key >= low) and (high is None or key <= high)


def update(rows: Sequence[tuple[Model, Collection[str]]]) -> None:
    """Store the named fields of each instance (all of one model) in one UPDATE, as
    ``save(update_fields=...)`` would (an ``auto_now`` field gets the time now); a row keeps
    the stored value of a field that only other rows changed."""
    rows = [(obj, fields) for obj, fields in rows if fields]
    if not rows:
        return
    model = type(rows[0][0])
    meta = model._meta
    pk_column = _pk_column(model)
    values: list[dict[str, Any]] = []
    for obj, names in rows:
        assert type(obj) is model  # one table
        row = {}
        for name in names:
            field = meta.get_field(name)
            assert isinstance(field, Field) and field.concrete  # a column of its own
            row[name] = field.get_db_prep_save(field.pre_save(obj, False), connection)
        values.append(row)
    params: list[Any] = []
    sets = []
    if len(rows) == 1:
        for name, value in values[0].items():
            sets.append(f"{column(model, name)} = %s")
            params.append(value)
        params.append(rows[0][0].pk)
        where = f"{pk_column} = %s"
    else:
        cast = connection.features.requires_casted_case_in_updates
        for name in sorted(set().union(*values)):
            col = column(model, name)
            whens = []
            for (obj, _names), row in zip(rows, values, strict=True):
                if name in row:
                    whens.append("WHEN %s THEN %s")
                    params += [obj.pk, row[name]]
            case = f"CASE {pk_column} {' '.join(whens)} ELSE {col} END"
            if cast:  # PostgreSQL wants the CASE cast to the column's type (as the ORM's)
                field = meta.get_field(name)
                case = f"CAST({case} AS {field.cast_db_type(connection)})"  # type: ignore[union-attr]
            sets.append(f"{col} = {case}")
        where = f"{pk_column} IN ({', '.join(['%s'] * len(rows))})"
        params += [obj.pk for obj, _names in rows]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {quoted(model)} SET {', '.join(sets)} WHERE {where}", params)
