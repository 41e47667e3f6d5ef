"""The live page: plain HTML, a little JavaScript and CSS, all served from here (no CDN)."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def table_page() -> str:
    return render_template("index.html")
