"""Everything that imports discord.py: the bot (`app`), the `/ttr` cog, persistent components and their
custom-id grammar, replies, the messenger, permission checks, start-up. Nothing outside this package imports
discord; the presentation it shows (`bot/play/`) is plain data."""
