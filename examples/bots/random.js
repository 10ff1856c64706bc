#!/usr/bin/env node
// A Durak bot in JavaScript: plays a uniformly random legal action.
//
// It speaks the arena's line-based JSON protocol (docs/bot-protocol.md) on
// stdin/stdout and needs nothing but Node.js:
//
//     durak-arena builtin:greedy "cmd:node examples/bots/random.js" --games 20
//
// The arena sends a seed with every game; a small seeded generator
// (mulberry32) makes the bot's games reproducible.  Logs go to stderr, which
// the arena keeps for forfeit reports; stdout carries protocol lines only.
"use strict";

const readline = require("readline");

const PROTOCOL = "durak-bot";
const VERSION = 1;

function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = mulberry32(1);

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      if (message.version !== VERSION) {
        console.error(`random.js speaks protocol version ${VERSION}, not ${message.version}`);
      }
      send({ type: "hello", protocol: PROTOCOL, version: VERSION, name: "random.js" });
      break;
    case "start":
      // The seed may exceed 2**53; only its low bits matter for mulberry32.
      random = mulberry32(Number(BigInt.asUintN(32, BigInt(message.seed ?? 0))));
      break;
    case "act": {
      const legal = message.legal;
      const choice = legal[Math.floor(random() * legal.length)];
      send({ type: "action", action: choice });
      break;
    }
    case "end":
      break;
    case "bye":
      input.close();
      process.exit(0);
      break;
    default:
      // Unknown messages are ignored, as the protocol asks.
      break;
  }
});

input.on("close", () => process.exit(0));
