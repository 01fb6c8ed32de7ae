"""The baseline for the HTTP benchmark: a minimal Flask app that echoes a JSON body."""
from flask import Flask, request

app = Flask(__name__)


@app.post("/echo")
def echo():
    return {"echo": request.get_json()}
