# Python 3.11.14 on Debian 12 (slim), pinned by the digest of its multi-platform index: a
# rebuild starts from the same base. To move it on, change the tag and its digest together.
FROM python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /srv/campground

# Exactly the versions (and hashes) of uv.lock; uv only exports them and leaves again.
COPY pyproject.toml uv.lock README.md alembic.ini ./
RUN pip install --no-cache-dir uv==0.13.9 \
 && uv export --frozen --no-emit-project --format requirements.txt -o /tmp/requirements.txt \
 && pip install --no-cache-dir --require-hashes -r /tmp/requirements.txt \
 && pip uninstall -y -q uv && rm /tmp/requirements.txt
COPY app ./app
COPY engine ./engine
COPY migrations ./migrations
COPY static ./static
# The project itself, then a user of its own: numeric, so that an orchestrator can tell it
# is not root (Kubernetes' runAsNonRoot) without reading /etc/passwd.
RUN pip install --no-cache-dir --no-deps . \
 && groupadd --gid 10001 campground \
 && useradd --uid 10001 --gid 10001 --no-log-init --no-create-home --shell /usr/sbin/nologin \
    campground
USER 10001:10001

EXPOSE 8000
# Liveness only: the database or Redis away must not get a container restarted.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health/live', timeout=4)"]
CMD ["campground", "serve", "--host", "0.0.0.0", "--port", "8000"]
