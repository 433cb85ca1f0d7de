package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerCommandsTest {
  @TempDir Path dir;

  @Test
  void tokenCreate_printsTokenOnce_storesOnlyItsHash() throws Exception {
    CliRunner cli = new CliRunner(dir);
    CliRunner.Result r =
        cli.run("token", "create", "--role", "writer", "--ns", "acme.*", "--id", "ingest");

    assertThat(r.exitCode()).isZero();
    String token = r.out().strip();
    assertThat(token).matches("loci_[A-Za-z0-9_-]{43}");
    assertThat(r.err()).contains("token ingest (writer, acme.*) stored hashed in");
    String toml = Files.readString(dir.resolve("loci.toml"));
    assertThat(toml)
        .doesNotContain(token)
        .contains("id = \"ingest\"", "role = \"writer\"", "namespaces = [\"acme.*\"]");
  }

  @Test
  void tokenCreate_configOption_writesThere() throws Exception {
    Path config = dir.resolve("elsewhere.toml");
    CliRunner.Result r =
        CliRunner.runRaw(
            "", "token", "create", "--role", "legal", "--ns", "*", "--config", config.toString());
    assertThat(r.exitCode()).isZero();
    assertThat(Files.readString(config)).contains("role = \"legal\"", "namespaces = [\"*\"]");
  }

  @Test
  void tokenCreate_badRole_usageErrorAndNothingWritten() {
    CliRunner.Result r =
        new CliRunner(dir).run("token", "create", "--role", "boss", "--ns", "acme");
    assertThat(r.exitCode()).isEqualTo(2);
    CliRunner.assertOneErrorLine(r, "--role", "reader, writer, reviewer, admin or legal");
    assertThat(Files.exists(dir.resolve("loci.toml"))).isFalse();
  }

  @Test
  void serve_nonLoopbackWithoutCredential_refusesAndSaysHowToFix() {
    CliRunner.Result r =
        new CliRunner(dir.resolve("data")).run("serve", "--host", "0.0.0.0", "--port", "0");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("loci: refusing to listen on 0.0.0.0")
        .contains("loci token create")
        .doesNotContain("\tat ");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
  }

  @Test
  void serve_journalUrlFromLociToml_isUsed_andABadOneIsAUsageErrorNamingIt() throws Exception {
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Files.writeString(data.resolve("loci.toml"), "[journal]\nurl = \"mysql://db/loci\"\n");

    CliRunner.Result r = new CliRunner(data).run("serve", "--port", "0");

    assertThat(r.exitCode()).isEqualTo(2);
    CliRunner.assertOneErrorLine(r, "[journal] url", "postgresql://");
  }

  @Test
  void serve_journalPoolSizeFromLociToml_outOfRange_isAnErrorNamingTheKey() throws Exception {
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Files.writeString(
        data.resolve("loci.toml"),
        "[journal]\nurl = \"postgresql://127.0.0.1:1/loci\"\npool_size = 1\n");

    CliRunner.Result r = new CliRunner(data).run("serve", "--port", "0");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err())
        .contains("journal.pool_size: expected 3 to 1000 connections, found 1")
        .doesNotContain("\tat ");
  }

  @Test
  void serve_unknownEmbedding_usageErrorAndNothingCreated() {
    CliRunner.Result r =
        new CliRunner(dir.resolve("data")).run("serve", "--port", "0", "--embedding", "word2vec");
    assertThat(r.exitCode()).isEqualTo(2);
    CliRunner.assertOneErrorLine(r, "embedding", "onnx");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
  }

  @Test
  void tokenList_showsIdsRolesAndScopes_neverTheTokenOrItsHash() throws Exception {
    CliRunner cli = new CliRunner(dir);
    String token =
        cli.run("token", "create", "--role", "writer", "--ns", "acme.*", "--id", "ingest")
            .out()
            .strip();
    cli.run("token", "create", "--role", "legal", "--ns", "*", "--id", "dpo");

    CliRunner.Result r = cli.run("token", "list");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("ingest", "writer", "acme.*", "dpo", "legal");
    assertThat(r.out()).doesNotContain(token).doesNotContainPattern("[0-9a-f]{64}");

    CliRunner.Result json = cli.run("--json", "token", "list");
    assertThat(json.out().strip())
        .isEqualTo(
            "{\"items\":[{\"id\":\"ingest\",\"role\":\"writer\",\"namespaces\":[\"acme.*\"]},"
                + "{\"id\":\"dpo\",\"role\":\"legal\",\"namespaces\":[\"*\"]}]}");
  }

  @Test
  void tokenRevoke_removesOnlyThatToken_keepingTheRestOfTheFile() throws Exception {
    Path file = dir.resolve("loci.toml");
    Files.writeString(file, "# our server\n[server]\nport = 7071\n");
    CliRunner cli = new CliRunner(dir);
    cli.run("token", "create", "--role", "writer", "--ns", "acme.*", "--id", "ingest");
    cli.run("token", "create", "--role", "reader", "--ns", "acme", "--id", "dash");

    CliRunner.Result r = cli.run("token", "revoke", "ingest");
    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).contains("token ingest (writer) removed from");
    String toml = Files.readString(file);
    assertThat(toml)
        .startsWith("# our server\n[server]\nport = 7071\n")
        .contains("id = \"dash\"")
        .doesNotContain("ingest");
    assertThat(cli.run("token", "list").out()).contains("dash").doesNotContain("ingest");
  }

  @Test
  void tokenRevoke_unknownId_failsNamingItAndChangesNothing() throws Exception {
    CliRunner cli = new CliRunner(dir);
    cli.run("token", "create", "--role", "writer", "--ns", "acme.*", "--id", "ingest");
    String before = Files.readString(dir.resolve("loci.toml"));

    CliRunner.Result r = cli.run("token", "revoke", "ingets");
    assertThat(r.exitCode()).isEqualTo(1);
    CliRunner.assertOneErrorLine(r, "no token with id 'ingets'");
    assertThat(Files.readString(dir.resolve("loci.toml"))).isEqualTo(before);
  }
}
