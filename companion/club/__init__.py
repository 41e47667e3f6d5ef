"""Club night: many tables, one league, over an MQTT broker (Eclipse Mosquitto).

Each table publishes what its scoreboard shows, event by event, and each finished game's whole record;
`companion club` keeps the league from them. messages.py is what both sides agree on.
"""
