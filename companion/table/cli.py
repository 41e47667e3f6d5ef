import argparse
from typing import Any


def add_table_commands(commands: "argparse._SubParsersAction[Any]") -> None:
    pass
