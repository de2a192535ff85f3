"""The family's named players: who they are (:mod:`.book`), what a name may be
(:mod:`.names`), and their standings (:mod:`.leaderboard`)."""
