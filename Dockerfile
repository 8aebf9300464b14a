# The bot's image: `docker build -t ttr-bot .` (README: Running it as a service). Three stages:
#   build   - the project built into a wheel, the rules engine compiled to C by mypyc (setup.py)
#   check   - optional (`docker build --target check .`): CI's install and checks (.ci/run) on the same sources
#   runtime - a slim Python with the wheel, the fonts and the cairo library the pictures need, a non-root user
# (The image is not built by this repository's CI, which has no Docker engine: tests/ops/test_deploy_files.py checks
# that every path copied here exists and every command run is one CI runs.)

FROM python:3.11-slim-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY maps ./maps
COPY render ./render
COPY bot ./bot
RUN python -m pip install --no-cache-dir --upgrade pip \
    && python -m pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM build AS check
# what .ci/run does after its virtualenv: install with the test extra, ruff, mypy, the tests (PostgreSQL and
# chromium absent here: their tests skip, saying why); the whole context, as the tests read .ci/run, the
# deployment files, .env.example
COPY . .
RUN python -m pip install --no-cache-dir -e '.[test]' \
    && ruff check . \
    && ruff format --check . \
    && mypy \
    && python -m pytest -q -m "not slow and not cluster"

FROM python:3.11-slim-bookworm AS runtime
# fonts-dejavu-core: the pictures' font (render/svg.py, render/layout); libcairo2: cairosvg draws with it
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core libcairo2 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 ttr \
    && install -d -o ttr -g ttr /home/ttr/data
COPY --from=build /wheels /wheels
RUN python -m pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER ttr
WORKDIR /home/ttr
# SQLite's file (the default DATABASE_URL is relative to this folder) lives in a volume
ENV DATABASE_URL=sqlite:////home/ttr/data/ttr.db \
    PYTHONUNBUFFERED=1 \
    METRICS_PORT=9100
VOLUME ["/home/ttr/data"]
EXPOSE 9100
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:9100/healthz', timeout=4).status != 200)"]
CMD ["ttr", "bot"]
