"""The board on the network: a read-only page of the table's board for phones and TVs.

Opt-in (``[web]`` in the config). ``server.BoardServer`` is handed each ``BoardSnapshot`` the
screen draws and pushes it to every open page; ``view`` turns a snapshot into the words and
numbers the page shows, in the page's language; ``page`` holds the page itself. Importing this
package starts nothing.
"""
