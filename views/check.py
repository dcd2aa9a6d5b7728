"""Blueprint for the check feature (filled in by its issue)."""

from flask import Blueprint

bp = Blueprint("check", __name__)
