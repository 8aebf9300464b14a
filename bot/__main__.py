"""`python -m bot`: run the Discord bot (see `bot.discord.startup`)."""

from bot.discord.startup import main

if __name__ == "__main__":
    main()
