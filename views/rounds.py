"""Blueprint for the rounds feature (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("rounds", __name__)
