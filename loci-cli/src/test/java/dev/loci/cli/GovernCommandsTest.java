package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci memory / review / conflicts / state / context}, stdout, stderr and exit codes. */
class GovernCommandsTest {
  @TempDir Path tmp;
  private CliRunner cli;

  @BeforeEach
  void setUp() {
    cli = new CliRunner(tmp.resolve("data"));
  }

  private JsonNode ok(String... args) {
    CliRunner.Result r = cli.run(args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.err()).isEmpty();
    return r.json();
  }

  @Test
  void walkThrough_proposeReviewConflictResolveStateContext() {
    String tea =
        ok(
                "memory",
                "add",
                "--ns",
                "acme",
                "--type",
                "preference",
                "--content",
                "Alice prefers tea",
                "--slot",
                "drink",
                "--subject",
                "alice")
            .get("memory")
            .get("id")
            .asText();
    assertThat(ok("review", "--ns", "acme").get("items")).hasSize(1);
    JsonNode promoted = ok("review", "--ns", "acme", "--promote", tea, "--reviewer", "dpo");
    assertThat(promoted.get("memory").get("status").asText()).isEqualTo("active");

    JsonNode coffee =
        ok(
            "memory",
            "add",
            "--ns",
            "acme",
            "--type",
            "preference",
            "--content",
            "Alice prefers coffee",
            "--slot",
            "drink",
            "--subject",
            "alice",
            "--active",
            "--reviewer",
            "dpo");
    assertThat(coffee.get("conflicts")).hasSize(1);
    String conflict = coffee.get("conflicts").get(0).get("id").asText();
    assertThat(ok("conflicts", "list", "--ns", "acme", "--open").get("items")).hasSize(1);

    JsonNode resolved =
        ok(
            "conflicts",
            "resolve",
            conflict,
            "--ns",
            "acme",
            "--winner",
            coffee.get("memory").get("id").asText(),
            "--reviewer",
            "dpo");
    assertThat(resolved.get("status").asText()).isEqualTo("resolved");
    assertThat(ok("memory", "show", tea, "--ns", "acme").get("items").get(0).get("status").asText())
        .isEqualTo("superseded");

    // recall scores as the HTTP API does: the superseded memory ranks after its successor, though
    // its words match the question better
    JsonNode recalled =
        ok(
            "--json",
            "recall",
            "Alice prefers tea",
            "--ns",
            "acme",
            "--mode",
            "lexical",
            "--embedding",
            "hashing");
    java.util.List<String> ranked = new java.util.ArrayList<>();
    recalled.get("items").forEach(i -> ranked.add(i.path("node").path("id").asText()));
    String coffeeNode = "memory:" + coffee.get("memory").get("id").asText();
    assertThat(ranked).contains("memory:" + tea, coffeeNode);
    assertThat(ranked.indexOf("memory:" + tea)).isGreaterThan(ranked.indexOf(coffeeNode));

    ok("state", "set", "deadline", "1 March", "--ns", "acme", "--reviewer", "dpo");
    assertThat(ok("state", "get", "deadline", "--ns", "acme").get("value").asText())
        .isEqualTo("1 March");
    JsonNode pack = ok("context", "What does Alice drink?", "--ns", "acme", "--budget", "50");
    assertThat(pack.get("used_tokens").asInt()).isLessThanOrEqualTo(50);
    assertThat(pack.toString()).contains("Alice prefers coffee").doesNotContain("prefers tea");
  }

  @Test
  void badInput_exitsTwoNamingTheOptionOrFieldAndWritesNothing() {
    String id =
        ok("memory", "add", "--ns", "acme", "--type", "knowledge", "--content", "x = 5 kW")
            .get("memory")
            .get("id")
            .asText();
    assertOneErrorLine(cli.run("review", "--ns", "acme", "--promote", id), "--reviewer");
    assertOneErrorLine(
        cli.run("memory", "add", "--ns", "acme", "--type", "opinion", "--content", "x"), "type");
    assertOneErrorLine(
        cli.run(
            "memory", "add", "--ns", "acme", "--type", "knowledge", "--content", "y", "--active"),
        "--reviewer");
    assertOneErrorLine(cli.run("state", "set", "k", "v", "--ns", "acme"), "--reviewer");
    assertOneErrorLine(cli.run("context", "q", "--ns", "acme", "--budget", "0"), "budget_tokens");
    CliRunner.Result missing = cli.run("state", "get", "nope", "--ns", "acme");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(ok("memory", "list", "--ns", "acme").get("items")).hasSize(1);
    assertThat(ok("review", "--ns", "acme").get("items").get(0).get("status").asText())
        .isEqualTo("candidate");
  }
}
