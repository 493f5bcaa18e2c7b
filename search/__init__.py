"""The public results hub: search across every public club, event and player (``search.query``
reads what was asked, ``search.selectors`` finds it), and the open data feed of a club's
finished results (``search.feed``)."""
