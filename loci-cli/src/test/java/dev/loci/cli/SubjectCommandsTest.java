package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci subject}, {@code loci audit} and {@code loci retention} on a real data directory. */
class SubjectCommandsTest {
  static final String SUBJECT = "pat-4471";

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

  private void addTrace(String ns, String note) {
    CliRunner.Result r =
        cli.run(
            "trace",
            "add",
            "--ns",
            ns,
            "--content",
            "{\"subject_ids\":[\"" + SUBJECT + "\"],\"note\":\"" + note + "\"}");
    assertThat(r.exitCode()).as(r.err()).isZero();
  }

  @Test
  void show_erase_verify_endToEnd() throws Exception {
    addTrace("clinic.ward", "ZETA-SECRET-1");
    addTrace("clinic.lab", "ZETA-SECRET-2");

    JsonNode m = ok("subject", "show", SUBJECT);
    assertThat(m.get("records")).hasSize(2);
    assertThat(ok("subject", "show", SUBJECT, "--ns", "clinic.lab").get("records")).hasSize(1);

    assertThat(cli.run("subject", "erase", SUBJECT, "--ns", "clinic.*", "--reason", "r").exitCode())
        .as("erasure needs --legal-token")
        .isEqualTo(2);
    String legal = cli.legalToken();
    JsonNode erased =
        ok(
            "subject",
            "erase",
            SUBJECT,
            "--ns",
            "clinic.*",
            "--reason",
            "patient request 12",
            "--legal-token",
            legal);
    assertThat(erased.get("records").asInt()).isEqualTo(2);
    assertThat(ok("subject", "show", SUBJECT).get("erasure").get("records").asInt()).isEqualTo(2);

    try (Stream<Path> files = Files.walk(data)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
            .as("%s", f)
            .doesNotContain("ZETA-SECRET")
            .doesNotContain(SUBJECT);
      }
    }

    JsonNode verified = ok("audit", "verify");
    assertThat(verified.get("ok").asBoolean()).isTrue();
    assertThat(verified.get("entries").asLong()).isGreaterThanOrEqualTo(3);
    CliRunner.Result export =
        cli.run("audit", "export", SUBJECT, "--ns", "clinic.ward", "--legal-token", legal);
    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(export.out().lines().toList()).last().asString().contains("legal_read:audit_export");
    assertThat(cli.run("verify").exitCode()).as("loci verify is clean").isZero();
  }

  @Test
  void auditVerify_exitsOneNamingTheFirstBadEntry() throws Exception {
    addTrace("clinic.ward", "a");
    addTrace("clinic.ward", "b");
    Path dir = data.resolve("subjects").resolve("audit");
    Path log;
    try (Stream<Path> files = Files.list(dir)) {
      log = files.findFirst().orElseThrow();
    }
    List<String> lines = Files.readAllLines(log);
    Files.write(log, List.of(lines.get(1), lines.get(0)));

    CliRunner.Result r = cli.run("audit", "verify", "--subject", SUBJECT);
    assertThat(r.exitCode()).isEqualTo(1);
    assertOneErrorLine(r, "audit log damaged", "line 1");
  }

  @Test
  void rotateKey_thenVerifies() {
    addTrace("clinic.ward", "a");
    String legal = cli.legalToken();
    assertThat(cli.run("audit", "rotate-key").exitCode()).isEqualTo(2);
    assertThat(ok("audit", "rotate-key", "--legal-token", legal).get("key").asText())
        .isEqualTo("k2");
    addTrace("clinic.ward", "b");
    assertThat(ok("audit", "verify").get("ok").asBoolean()).isTrue();
  }

  @Test
  void retention_setShowSweep_andAHoldWins() {
    addTrace("clinic.ward", "a");
    String legal = cli.legalToken();
    assertOneErrorLine(
        cli.run("retention", "set", "--ns", "clinic", "--retain-days", "0", "--legal-token", legal),
        "retain_days");
    ok("retention", "set", "--ns", "clinic", "--retain-days", "30", "--legal-token", legal);
    assertThat(ok("retention", "show", "--ns", "clinic.ward").get("retain_days").asInt())
        .isEqualTo(30);
    ok("subject", "policy", SUBJECT, "--ns", "clinic.ward", "--legal-hold", "--legal-token", legal);

    JsonNode dry = ok("retention", "sweep", "--dry-run");
    assertThat(dry.get("dry_run").asBoolean()).isTrue();
    assertThat(dry.get("expired")).isEmpty(); // written just now: nothing is 30 days old
  }
}
