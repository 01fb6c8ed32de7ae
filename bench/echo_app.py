"""The HTTP baseline: a Flask app that parses a JSON body and sends it back, nothing else.

It reads and writes JSON exactly as the service does (``api.jsonio``: orjson, sorted keys), and
``bench/bench.py`` posts it the very bodies it posts the endpoint it is compared with, so the
ratio endpoint/echo is the share of the stack's own ceiling (Flask, gunicorn, JSON) the service
reaches: everything below 100% is the shape check, ``check_state`` and the rules.
"""

from flask import Flask, request

from api import jsonio

app = Flask(__name__)
app.json = jsonio.OrjsonProvider(app)


@app.post("/echo")
def echo():
    return {"echo": jsonio.loads(request.get_data(cache=False))}
