//! Generates the gRPC code from `proto/whistle/v1/whistle.proto`: the
//! messages always, the client and server with the `grpc` feature (the
//! default).
//!
//! `protoc` comes from the `protoc-bin-vendored` crate so that a fresh machine
//! needs nothing but the Rust toolchain; a `PROTOC` environment variable
//! overrides it.

use std::{env, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    let proto = root.join("whistle/v1/whistle.proto");
    let out = PathBuf::from(env::var("OUT_DIR")?);
    let mut config = prost_build::Config::new();
    match env::var_os("PROTOC") {
        Some(p) => config.protoc_executable(p),
        None => config.protoc_executable(protoc_bin_vendored::protoc_bin_path()?),
    };
    println!("cargo:rerun-if-env-changed=PROTOC");
    println!("cargo:rerun-if-changed={}", proto.display());
    let descriptors = out.join("whistle_v1_descriptor.bin");
    #[cfg(feature = "grpc")]
    {
        tonic_prost_build::configure()
            .file_descriptor_set_path(&descriptors)
            .compile_with_config(config, &[proto], &[root])?;
        encoded_play_server();
    }
    #[cfg(not(feature = "grpc"))]
    config
        .file_descriptor_set_path(&descriptors)
        .compile_protos(&[proto], &[root])?;
    // The protocol's JSON form (proto3's JSON mapping, every field written,
    // the .proto's field names): what stdio bots read (docs/stdio.md).
    pbjson_build::Builder::new()
        .register_descriptors(&std::fs::read(&descriptors)?)?
        .emit_fields()
        .preserve_proto_field_names()
        .build(&[".whistle.v1"])?;
    omit_empty_ids(&out.join("whistle.v1.serde.rs"))?;
    Ok(())
}

/// The referee's own server of `whistle.v1.Referee` (`pb::encoded`): the
/// same service and routes as the generated one, but `Play` sends messages
/// the referee has already encoded (`codec::Encoded`, through
/// `codec::PlayCodec`), so that it can encode each request into buffers
/// it keeps. Its methods are the .proto's (`Subscribe`, `Play`); a method
/// added there must be added here.
#[cfg(feature = "grpc")]
fn encoded_play_server() {
    use tonic_prost_build::manual::{Builder, Method, Service};
    let service = Service::builder()
        .name("Referee")
        .package("whistle.v1")
        .method(
            Method::builder()
                .name("subscribe")
                .route_name("Subscribe")
                .input_type("crate::pb::SubscribeRequest")
                .output_type("crate::pb::SeatAssignment")
                .codec_path("tonic_prost::ProstCodec")
                .server_streaming()
                .build(),
        )
        .method(
            Method::builder()
                .name("play")
                .route_name("Play")
                .input_type("crate::pb::BotMessage")
                .output_type("crate::codec::Encoded")
                .codec_path("crate::codec::PlayCodec")
                .client_streaming()
                .server_streaming()
                .build(),
        )
        .build();
    Builder::new().build_client(false).compile(&[service]);
}

/// The binary form's id fields (`Hello.binary`) are written to JSON only
/// when set: a text stream's messages, which are all that JSON readers get
/// (stdio bots, `replay show`, the Python engine), then print exactly as
/// they did before the fields existed.
fn omit_empty_ids(serde_rs: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    const REPEATED: [&str; 4] = ["legal_ids", "hand_ids", "known_ids", "card_ids"];
    const SCALAR: [&str; 3] = ["bid_id", "action_id", "card_id"];
    let mut code = std::fs::read_to_string(serde_rs)?;
    for (names, test) in [
        (&REPEATED[..], "!self.{}.is_empty()"),
        (&SCALAR[..], "self.{} != 0"),
    ] {
        for name in names {
            let from = format!(
                "if true {{\n            struct_ser.serialize_field(\"{name}\", &self.{name})?;"
            );
            let to = format!(
                "if {} {{\n            struct_ser.serialize_field(\"{name}\", &self.{name})?;",
                test.replace("{}", name)
            );
            if !code.contains(&from) {
                return Err(format!(
                    "pbjson's output changed: no `{name}` field written as expected"
                )
                .into());
            }
            code = code.replace(&from, &to);
        }
    }
    std::fs::write(serde_rs, code)?;
    Ok(())
}
