"""Nim for clients (the fixture game): its notation (:mod:`.notation`), its
sentences and board words in every language (:mod:`.texts`), its terminal
board (:mod:`.terminal`, needs rich), its web data (:mod:`.web`), its bot
(:mod:`.bot`) and its client (:mod:`.client`), the one way surfaces reach it."""
