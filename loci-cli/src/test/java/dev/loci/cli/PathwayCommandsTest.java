package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci pathway ...} end to end through {@link Main#run}, JSON in and out. */
class PathwayCommandsTest {
  static final String TRACE =
      "{\"task_class\":\"scrum_review\",\"file_path\":\"crates/queryd/src/a.rs\","
          + "\"signal_class\":\"LOOPING\",\"reducer_summary\":\"ping jo@example.com\","
          + "\"final_verdict\":\"accepted\"}";

  @TempDir Path tmp;
  private Path data;
  private CliRunner cli;

  @BeforeEach
  void setUp() {
    data = tmp.resolve("loci-data");
    cli = new CliRunner(data);
  }

  private JsonNode ok(String... args) {
    CliRunner.Result r = cli.run(args);
    assertThat(r.exitCode()).as("%s\n%s", String.join(" ", args), r.err()).isZero();
    return r.json();
  }

  private String insert() {
    JsonNode w = ok("pathway", "insert", "--ns", "acme", "--trace", TRACE);
    return w.get("trace").get("trace_uid").asText();
  }

  @Test
  void insert_printsTheStoredTraceAndTheRedactionCount() {
    JsonNode w = ok("pathway", "insert", "--ns", "acme", "--trace", TRACE);

    assertThat(w.get("redactions").asInt()).isEqualTo(1);
    JsonNode t = w.get("trace");
    assertThat(t.get("version").asInt()).isEqualTo(1);
    assertThat(t.get("reducer_summary").asText()).isEqualTo("ping [email]");
    assertThat(t.get("pathway_vec").size()).isEqualTo(32);
    assertThat(t.get("pathway_id").asText()).hasSize(64);
  }

  @Test
  void lifecycle_reviseReplayHotswapSimilarVersionsStats() {
    String v1 = insert();
    JsonNode v2 =
        ok("pathway", "revise", v1, "--ns", "acme", "--fields", "{\"final_verdict\":\"rejected\"}")
            .get("trace");
    assertThat(v2.get("version").asInt()).isEqualTo(2);
    assertThat(v2.get("parent_trace_uid").asText()).isEqualTo(v1);
    String v2uid = v2.get("trace_uid").asText();

    JsonNode replayed = ok("pathway", "replay", v2uid, "--ns", "acme", "--success");
    assertThat(replayed.get("replay_count").asInt()).isEqualTo(1);

    JsonNode hot =
        ok(
            "pathway",
            "hotswap",
            "--ns",
            "acme.*",
            "--task-class",
            "scrum_review",
            "--file-path",
            "crates/queryd/x.rs",
            "--signal-class",
            "LOOPING");
    assertThat(hot.size()).isEqualTo(1);
    assertThat(hot.get(0).get("trace_uid").asText()).isEqualTo(v2uid);

    JsonNode similar = ok("pathway", "similar", "--ns", "acme", "--like", v1, "--k", "3");
    assertThat(similar.get(0).get("score").asDouble()).isGreaterThan(0.99);
    assertThat(similar.get(0).get("trace").get("trace_uid").asText()).isEqualTo(v2uid);

    String legal = cli.legalToken();
    JsonNode chain = ok("pathway", "versions", v2uid, "--ns", "acme", "--legal-token", legal);
    assertThat(chain.size()).isEqualTo(2);
    assertThat(chain.get(0).get("trace_uid").asText()).isEqualTo(v1);

    JsonNode stats = ok("pathway", "stats", "--ns", "acme");
    assertThat(stats.get("traces").asInt()).isEqualTo(2);
    assertThat(stats.get("head_traces").asInt()).isEqualTo(1);
    assertThat(stats.get("replays").asInt()).isEqualTo(1);
    assertThat(stats.get("redactions").asInt()).isEqualTo(1);
  }

  @Test
  void badInput_exitsTwoNamingTheFieldAndWritesNothing() {
    String uid = insert();
    assertOneErrorLine(
        cli.run(
            "pathway",
            "insert",
            "--ns",
            "acme",
            "--trace",
            "{\"task_class\":\"\",\"file_path\":\"a\"}"),
        "task_class");
    assertOneErrorLine(
        cli.run("pathway", "insert", "--ns", "acme", "--trace", "{\"task_class\":"), "trace");
    assertOneErrorLine(
        cli.run(
            "pathway",
            "insert",
            "--ns",
            "acme",
            "--trace",
            "{\"task_class\":\"t\",\"file_path\":\"a\",\"semantic_flags\":[\"Nope\"]}"),
        "semantic_flags");
    assertOneErrorLine(
        cli.run("pathway", "replay", "nope", "--ns", "acme", "--success"), "trace_uid");
    assertOneErrorLine(
        cli.run("pathway", "similar", "--ns", "acme", "--vec", "[1,2,3]"), "pathway_vec", "32");
    assertThat(cli.run("pathway", "replay", uid, "--ns", "acme").exitCode()).isEqualTo(2);
    assertThat(cli.run("pathway", "versions", uid, "--ns", "acme").exitCode())
        .as("list_versions needs --legal-token")
        .isEqualTo(2);
    // a name typed on the command line is no legal credential, nor is a token of another role
    assertOneErrorLine(
        cli.run("pathway", "versions", uid, "--ns", "acme", "--legal-token", "dpo"),
        "--legal-token",
        "not a token");
    String writer = cli.run("token", "create", "--role", "writer", "--ns", "*").out().strip();
    assertOneErrorLine(
        cli.run("pathway", "versions", uid, "--ns", "acme", "--legal-token", writer),
        "--legal-token",
        "writer role");
    assertOneErrorLine(
        cli.run("pathway", "get", uid, "--ns", "acme", "--include-history"), "--legal-token");
    assertThat(cli.run("pathway", "export", "--ns", "acme", "--format", "csv").exitCode())
        .isEqualTo(2);
    JsonNode stats = ok("pathway", "stats", "--ns", "acme");
    assertThat(stats.get("traces").asInt()).isEqualTo(1);
    assertThat(stats.get("replays").asInt()).isZero();
  }

  @Test
  void importThenExport_roundTripsTheRustStateFile() throws Exception {
    // the pathway module's fixture, in the Rust implementation's shape
    Path state = Path.of("../loci-pathway/src/test/resources/rust-state/state.json");

    JsonNode report =
        ok("pathway", "import", "--ns", "lake", "--format", "rust-state", state.toString());
    assertThat(report.get("imported").asInt()).isEqualTo(4);
    assertThat(report.get("legacy_assigned").asInt()).isEqualTo(1);

    CliRunner.Result exported =
        cli.run("pathway", "export", "--ns", "lake", "--format", "rust-state");
    assertThat(exported.exitCode()).isZero();
    Path copy = tmp.resolve("copy.json");
    Files.writeString(copy, exported.out());
    JsonNode again =
        ok("pathway", "import", "--ns", "lake2", "--format", "rust-state", copy.toString());
    assertThat(again.get("imported").asInt()).isEqualTo(4);
    assertThat(again.get("legacy_assigned").asInt()).as("uids were assigned once").isZero();
    assertThat(cli.run("pathway", "export", "--ns", "lake2", "--format", "rust-state").out())
        .isEqualTo(exported.out());
  }

  @Test
  void redaction_setAndShow() {
    ok(
        "pathway",
        "redaction",
        "--ns",
        "acme",
        "--set",
        "{\"rules\":[{\"name\":\"badge\",\"regex\":\"B-\\\\d+\"}]}");
    JsonNode policy = ok("pathway", "redaction", "--ns", "acme.team");
    assertThat(policy.get("rules").get(0).get("name").asText()).isEqualTo("badge");
    JsonNode w =
        ok(
            "pathway",
            "insert",
            "--ns",
            "acme.team",
            "--trace",
            "{\"task_class\":\"t\",\"file_path\":\"a\",\"final_verdict\":\"B-123 jo@example.com\"}");
    assertThat(w.get("trace").get("final_verdict").asText()).isEqualTo("[badge] jo@example.com");
    assertOneErrorLine(
        cli.run(
            "pathway",
            "redaction",
            "--ns",
            "acme",
            "--set",
            "{\"rules\":[{\"name\":\"x\",\"regex\":\"([\"}]}"),
        "rules[0].regex");
    assertThat(ok("pathway", "redaction", "--ns", "acme", "--off").get("enabled").asBoolean())
        .isFalse();
  }
}
