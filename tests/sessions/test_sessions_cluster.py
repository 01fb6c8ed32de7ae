"""Sessions on a Redis Cluster (three real nodes): ``REDIS_URL`` names one node, the store
notices it is a cluster, and every key of a session lives on one slot, so the Lua scripts
(atomic moves, delete) work there too."""

from __future__ import annotations

import pytest
from sessions_served import RedisClusterServers

from api import create_app, jsonio
from api.session_store import KEY_PREFIX

GAME = "reign-and-ruin"


@pytest.fixture
def cluster(tmp_path):
    servers = RedisClusterServers(tmp_path).start()
    yield servers
    servers.stop()


def test_a_session_on_a_cluster(cluster, tmp_path):
    from redis.cluster import RedisCluster

    app = create_app(
        {"TESTING": True, "REDIS_URL": cluster.url, "REFEREE_DATA_DIR": str(tmp_path / "unused")}
    )
    client = app.test_client()
    assert isinstance(app.extensions["referee_store"].client(), RedisCluster)
    assert client.get("/readyz").status_code == 200
    created = client.post(
        "/v1/sessions", json={"game": GAME, "players": ["ann", "bob"], "open": True, "seed": 3}
    ).get_json()
    sid, path = created["session_id"], f"/v1/sessions/{created['session_id']}"
    seats = {p: {"Authorization": f"Bearer {t}"} for p, t in created["seats"].items()}
    stream = client.get(path + "/events?after=0")
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")
    for player in ("ann", "bob"):
        move = client.get(path + "/legal-moves", headers=seats[player]).get_json()["moves"][0]
        headers = {
            **seats[player],
            "Idempotency-Key": player,
            "If-Match": '"0"' if player == "ann" else '"1"',
        }
        first = client.post(path + "/moves", json={"move": move}, headers=headers)
        again = client.post(path + "/moves", json={"move": move}, headers=headers)
        assert (
            first.status_code == again.status_code == 200 and again.get_json() == first.get_json()
        )
    stale = client.post(
        path + "/moves", json={"move": move}, headers={**seats["bob"], "If-Match": '"0"'}
    )
    assert stale.status_code == 412
    assert [next(chunks).split(b"\n")[0] for _ in range(2)] == [b"id: 1", b"id: 2"]
    stream.close()
    history = client.get(path + "/history").get_json()
    assert [e["version"] for e in history["entries"]] == [1, 2]
    for headers in (seats["ann"], {}):  # the record, joined from its kept views by one script
        record = client.get(path + "/record", headers=headers).get_json()
        assert [e["version"] for e in record["entries"]] == [1, 2]
    redis = app.extensions["referee_store"].client()
    parts = ("session", "history", "answers", "record:public", "record:0", "record:1")
    keys = [f"{KEY_PREFIX}{{{sid}}}:{part}" for part in parts]
    assert len({redis.keyslot(k) for k in keys}) == 1
    assert (
        int(redis.hget(keys[0], "version")) == 2
        and len(jsonio.loads(redis.lindex(keys[1], 0))["events"]) >= 1
    )
    assert (
        client.delete(
            path, headers={"Authorization": f"Bearer {created['admin_token']}"}
        ).status_code
        == 204
    )
    assert client.get(path).status_code == 404
    assert not any(
        redis.exists(k) for k in keys[1:]
    )  # only the tombstone stays: token hashes, no state
    assert sorted(redis.hkeys(keys[0])) == [b"admin", b"seats"]


def test_clocks_move_past_a_downtime_and_time_out_on_a_cluster(cluster, tmp_path):
    """The claim script takes the deadline set and the heartbeat (one slot: the heartbeat's hash
    tag is the set's name); the walk writes each session's clock on its own slot."""
    from api import clock as clocks
    from api.clock_keeper import ClockKeeper
    from api.clock_store import HEARTBEAT

    app = create_app(
        {"TESTING": True, "REDIS_URL": cluster.url, "REFEREE_DATA_DIR": str(tmp_path / "unused")}
    )
    app.extensions["referee_clocks"].stop()  # the test's keepers are the only ones
    created = app.test_client().post(
        "/v1/sessions",
        json={
            "game": GAME,
            "players": ["ann", "bob"],
            "clock": {"type": "per_move", "seconds": 60},
        },
    )
    assert created.status_code == 201, created.get_json()
    sid = created.get_json()["session_id"]
    sessions = app.extensions["referee_sessions"]
    before = jsonio.loads(sessions.load(sid).clock)
    now = before["since"] + 5_000
    app.extensions["referee_store"].client().hset(HEARTBEAT, "at", now)
    now += 600_000  # ten minutes down
    keeper = ClockKeeper(sessions, 50, now=lambda: now)
    assert [t for f in keeper.tick() for t in f.timeouts] == []
    after = jsonio.loads(sessions.load(sid).clock)
    assert clocks.deadlines(after) == {s: t + 600_000 for s, t in clocks.deadlines(before).items()}
    app.extensions["referee_store"].client().hset(HEARTBEAT, "at", now + 55_000)
    now += 55_001
    assert [t for f in keeper.tick() for t in f.timeouts] == [(1, "ann")]
