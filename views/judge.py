"""Blueprint for the judge feature (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("judge", __name__)
