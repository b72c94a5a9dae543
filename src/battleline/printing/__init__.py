"""Printable play aids for tabletop players (BF6-GEN-02): ship logs, gunnery logs and the
combat chart tables, as PDF, drawn with reportlab from the data the engine uses."""
