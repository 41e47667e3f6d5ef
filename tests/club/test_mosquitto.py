"""The real broker the club runs on: QoS 1 messages queued for an absent reader survive its restart,
and a club's broker refuses clients without the club's key."""

from __future__ import annotations

import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.club.mosquitto import Mosquitto

from .conftest import LEAGUE, TABLE


def client(broker: Mosquitto, client_id: str, *, account: tuple[str, str] | None = None) -> mqtt.Client:
    made = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
    if account:
        made.username_pw_set(*account)
    return made


def connect(made: mqtt.Client, broker: Mosquitto) -> int:
    """The broker's answer to the connection (0: accepted)."""
    answered = threading.Event()
    codes: list[int] = []

    def on_connect(_c: mqtt.Client, _u: object, _f: object, reason: object, _p: object) -> None:
        codes.append(int(getattr(reason, "value", reason)))  # type: ignore[call-overload]
        answered.set()

    made.on_connect = on_connect
    made.connect("127.0.0.1", broker.port)
    made.loop_start()
    assert answered.wait(10), "the broker did not answer"
    return codes[0]


def test_queued_messages_for_an_absent_reader_survive_a_broker_restart(broker: Mosquitto) -> None:
    reader = client(broker, "league")
    subscribed = threading.Event()
    reader.on_subscribe = lambda *_args: subscribed.set()
    assert connect(reader, broker) == 0
    reader.subscribe("minotaur/lions/tables/#", qos=1)
    assert subscribed.wait(10)
    reader.disconnect()
    reader.loop_stop()

    writer = client(broker, "table-1")
    assert connect(writer, broker) == 0
    infos = [writer.publish("minotaur/lions/tables/t1/events", f"{n}", qos=1) for n in range(20)]
    for info in infos:
        info.wait_for_publish(10)
    writer.disconnect()
    writer.loop_stop()

    broker.restart()
    got: list[str] = []
    done = threading.Event()

    def on_message(_c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        got.append(message.payload.decode())
        if len(got) == 20:
            done.set()

    reader = client(broker, "league")
    reader.on_message = on_message
    assert connect(reader, broker) == 0
    assert done.wait(10), f"only {len(got)} of 20 queued messages arrived after the restart"
    assert got == [str(n) for n in range(20)], "in order, once each"
    reader.disconnect()
    reader.loop_stop()


def test_a_clubs_broker_lets_in_only_the_clubs_accounts(club_broker: Mosquitto) -> None:
    assert connect(client(club_broker, "stranger"), club_broker) != 0
    assert connect(client(club_broker, "t1", account=("table", "wrong")), club_broker) != 0
    assert connect(client(club_broker, "t1", account=(TABLE.username, TABLE.password)), club_broker) == 0
    assert connect(client(club_broker, "lg", account=(LEAGUE.username, LEAGUE.password)), club_broker) == 0
