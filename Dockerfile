FROM python:3.11-slim

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
RUN pip install --no-cache-dir --no-deps .

RUN useradd --create-home campground
USER campground

EXPOSE 8000
CMD ["campground", "serve", "--host", "0.0.0.0", "--port", "8000"]
