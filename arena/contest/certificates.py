"""Certificates as PDF (fpdf2): excellence for the top six, participation for every faultless team.

Who earns which is the tournament library's rule (``awards.csv``, :mod:`arena.tournament.awards`): the
top six are the final's places once it is played (the finalists in standings order before), and
participation goes to every team whose program ran without a fault at every table it sat at.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from arena.runfolder.layout import AWARDS
from arena.tournament.awards import EXCELLENCE


@dataclass(frozen=True)
class Certificate:
    """One certificate to print."""

    kind: str
    team: str
    team_name: str
    place: int | None
    reason: str


def awards_of(run_dir: Path, team: str) -> list[tuple[str, int | None, str]]:
    """``(certificate, place, reason)`` of every award ``team`` earned (none before the tournament ends)."""
    path = run_dir / AWARDS
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as file:
        return [
            (row["certificate"], int(row["place"]) if row["place"] else None, row["reason"])
            for row in csv.DictReader(file)
            if row["team"] == team
        ]


def _latin(text: str) -> str:
    """Text the PDF's core font can draw (anything else becomes '?')."""
    return text.encode("latin-1", "replace").decode("latin-1")


def render_certificate(certificate: Certificate, contest: str) -> bytes:
    """The certificate as a one-page landscape PDF."""
    pdf = FPDF(orientation="L", format="A4")
    pdf.set_title(_latin(f"{contest}: certificate of {certificate.kind}"))
    pdf.set_creator("arena")
    pdf.add_page()
    pdf.set_line_width(1.2)
    pdf.rect(12, 12, pdf.w - 24, pdf.h - 24)
    pdf.set_font("Helvetica", "B", 30)
    pdf.ln(28)
    title = "Certificate of Excellence" if certificate.kind == EXCELLENCE else "Certificate of Participation"
    pdf.cell(0, 16, title, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 16)
    pdf.ln(8)
    pdf.cell(0, 10, _latin(contest), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(10)
    pdf.cell(0, 10, "awarded to", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "B", 24)
    pdf.cell(0, 14, _latin(certificate.team_name[:80]), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 14)
    pdf.cell(0, 9, _latin(f"(team {certificate.team})"), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(8)
    if certificate.place is not None:
        pdf.cell(0, 10, f"place {certificate.place}", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 10, _latin(certificate.reason[:150]), align="C", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
