"""A club's tables as one tournament: tables publish their game records over MQTT to a broker
(Mosquitto), the director (``crib-pi club run``) checks each record with the rules engine,
scores it by the club's rules, pairs the next round and shows the standings.

Only the table link (``table.py``) reads a table's game database; the director keeps its own
SQLite store (``store.py``). Nothing here is imported by the pure core.
"""
