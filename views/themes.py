"""Blueprint for the themes feature (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("themes", __name__)
