// A bot on @grpc/grpc-js and @grpc/proto-loader, from the .proto alone:
// it takes WHISTLE_ADDRESS exactly as the launch contract gives it
// (`host:port` or `unix:PATH`), subscribes with WHISTLE_TOKEN and answers
// every request with the first legal action. Used by the launch-contract
// test (crates/cli/tests/stdio.rs); `npm install` beside it first.
"use strict";
const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const loader = require("@grpc/proto-loader");

const proto = process.env.WHISTLE_PROTO || path.join(__dirname, "whistle.proto");
const pkg = grpc.loadPackageDefinition(
  loader.loadSync(proto, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }),
);
const address = process.env.WHISTLE_ADDRESS;
const token = process.env.WHISTLE_TOKEN;
if (!address || !token) {
  console.error("WHISTLE_ADDRESS and WHISTLE_TOKEN are required");
  process.exit(2);
}
// gRPC would send a socket's path as the HTTP/2 authority (docs/protocol.md).
const options = address.startsWith("unix:") ? { "grpc.default_authority": "localhost" } : {};
const client = new pkg.whistle.v1.Referee(address, grpc.credentials.createInsecure(), options);

let seats = 0;
let subscribed = true;
function done() {
  setImmediate(() => {
    if (!subscribed && seats === 0) process.exit(0);
  });
}

// One seat, to the end of its match; a cut stream (UNAVAILABLE) is opened
// again with the same seat token, which resumes the seat.
function play(seatToken, retries = 0) {
  seats += 1;
  const call = client.Play();
  call.write({ hello: { token: seatToken, bot_name: "grpc-js", protocol: "whistle.v1", quiet: true } });
  call.on("data", (msg) => {
    if (msg.request) {
      call.write({ answer: { request_id: msg.request.request_id, index: 0 } });
    } else if (msg.match_end) {
      call.end();
    }
  });
  call.on("error", (e) => console.error(`seat stream: ${e.message}`));
  call.on("status", (status) => {
    if (status.code === grpc.status.UNAVAILABLE && retries < 5) {
      setTimeout(() => play(seatToken, retries + 1), 100);
    }
    seats -= 1;
    done();
  });
}

const assignments = client.Subscribe({ token, bot_name: "grpc-js" });
assignments.on("data", (a) => play(a.seat_token));
assignments.on("error", (e) => {
  console.error(`subscribe: ${e.message}`);
  process.exit(1);
});
assignments.on("end", () => {
  subscribed = false;
  done();
});
