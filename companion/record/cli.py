import argparse
from typing import Any


def add_record_commands(commands: "argparse._SubParsersAction[Any]") -> None:
    pass
