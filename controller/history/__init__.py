"""The history of games played: the SQLite store, its records, statistics and exports.

:mod:`~controller.history.store` keeps the database, :mod:`~controller.history.record`
makes a finished game into a row, :mod:`~controller.history.keeper` is the table's side
of it (writes that may fail, the statistics page), :mod:`~controller.history.pending`
carries records the disk refused inside the save file, and
:mod:`~controller.history.export` and :mod:`~controller.history.stats` read it back.
"""
