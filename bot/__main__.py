"""`python -m bot`: run the Discord bot (see `bot.launch`, the composition root's start)."""

from bot.launch import main

if __name__ == "__main__":
    main()
