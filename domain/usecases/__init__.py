"""The service layer, one small module per use case (in the spirit of Cosmic Python's).

Each use case is a function of a `Court` (court.py: the ports, and the one way a request
opens a game) and of plain arguments, returning plain values:

- games.py: deal a game (invites, shared deals), join it, read it, with seats.py (who sits
  where);
- rematches.py: a finished game's rematch (same seats, new deal), once per game;
- playing.py: a seat's move, checked, de-duplicated and appended;
- appending.py: one event onto the log (the hash chain, the finish, the expiry);
- bots.py: the bot seats' replies;
- records.py: the log, the record, a replay step, the finished games' listing;
- daily.py: daily challenges, players and leaderboards;
- shown.py: what a requester may see of a game (masked cards, salts only with whole moves).

`domain/service.py`'s `GameService` puts them behind one object for the handlers and the CLI.
Nothing here does I/O but through the store ports, or reads a clock but the injected one.
"""
