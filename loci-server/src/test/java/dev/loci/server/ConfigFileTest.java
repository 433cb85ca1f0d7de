package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.NamespaceScope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci.toml}: parsing, plain-text tokens replaced by hashes, new tokens, errors. */
class ConfigFileTest {
  @TempDir Path dir;

  @Test
  void journalUrl_readFromTheJournalTable_absentWhenMissing_refusedWhenNotAString()
      throws Exception {
    Path f = dir.resolve("loci.toml");
    assertThat(ConfigFile.journalUrl(f)).isEmpty();
    Files.writeString(f, "[server]\nport = 7071\n");
    assertThat(ConfigFile.journalUrl(f)).isEmpty();
    Files.writeString(f, "[journal]\nurl = \"postgresql://db.internal/loci\"\n");
    assertThat(ConfigFile.journalUrl(f)).contains("postgresql://db.internal/loci");
    Files.writeString(f, "[journal]\nurl = 5\n");
    assertThatThrownBy(() -> ConfigFile.journalUrl(f))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("journal.url");
  }

  @Test
  void journalPoolSize_readFromTheJournalTable_absentWhenMissing_refusedOutsideTheRange()
      throws Exception {
    Path f = dir.resolve("loci.toml");
    assertThat(ConfigFile.journalPoolSize(f, 3, 1000)).isEmpty();
    Files.writeString(f, "[journal]\nurl = \"postgresql://db.internal/loci\"\n");
    assertThat(ConfigFile.journalPoolSize(f, 3, 1000)).isEmpty();
    Files.writeString(f, "[journal]\npool_size = 12\n");
    assertThat(ConfigFile.journalPoolSize(f, 3, 1000)).contains(12);
    Files.writeString(f, "[journal]\npool_size = 2\n");
    assertThatThrownBy(() -> ConfigFile.journalPoolSize(f, 3, 1000))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("journal.pool_size: expected 3 to 1000 connections, found 2");
    Files.writeString(f, "[journal]\npool_size = \"8\"\n");
    assertThatThrownBy(() -> ConfigFile.journalPoolSize(f, 3, 1000))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("journal.pool_size");
  }

  @Test
  void load_missingFile_defaults() {
    assertThat(ConfigFile.load(dir.resolve("loci.toml"))).isEqualTo(ServerConfig.defaults());
  }

  @Test
  void load_everySection() throws Exception {
    Path f = dir.resolve("loci.toml");
    Files.writeString(
        f,
        """
        [server]
        host = "0.0.0.0"
        port = 8080
        allowed_ips = ["10.0.0.0/8", "::1"]
        trusted_proxies = ["10.0.0.5"]

        [limits]
        body_bytes = 1024
        [limits.body_bytes_by_prefix]
        "/v1/ns/" = 2048
        "/v1/ns/big." = 4096

        [rate_limit]
        per_second = 2.5
        burst = 5

        [[tokens]]
        id = "ingest"
        sha256 = "%s"
        role = "writer"
        namespaces = ["acme.*", "globex"]
        """
            .formatted("ab".repeat(32)));
    ServerConfig c = ConfigFile.load(f);

    assertThat(c.host()).isEqualTo("0.0.0.0");
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.allowedIps()).hasSize(2);
    assertThat(c.trustedProxies()).containsExactly(Cidr.of("10.0.0.5"));
    assertThat(c.bodyLimits().limitFor("/v1/ns/big.x/traces")).isEqualTo(4096);
    assertThat(c.bodyLimits().limitFor("/v1/ns/a/traces")).isEqualTo(2048);
    assertThat(c.bodyLimits().limitFor("/other")).isEqualTo(1024);
    assertThat(c.rateLimit()).contains(new ServerConfig.RateLimit(2.5, 5));
    Credential t = c.credentials().get(0);
    assertThat(t.role()).isEqualTo(Role.WRITER);
    assertThat(t.covers(NamespaceScope.of("acme.x.*"))).isTrue();
    assertThat(t.covers(NamespaceScope.of("globex"))).isTrue();
    assertThat(t.covers(NamespaceScope.of("globex.*"))).isFalse();
    assertThat(t.covers(NamespaceScope.of("acmecorp"))).isFalse();
  }

  @Test
  void load_plaintextToken_replacedByItsHashAtomically() throws Exception {
    Path f = dir.resolve("loci.toml");
    Files.writeString(
        f,
        """
        # my tokens
        [[tokens]]
        id = "dev"
        token = "loci_plain-secret" # keep this comment
        role = "admin"
        namespaces = ["*"]
        """);
    ServerConfig c = ConfigFile.load(f);

    String text = Files.readString(f);
    assertThat(text).doesNotContain("plain-secret").contains("# my tokens", "# keep this comment");
    assertThat(text).contains("sha256 = \"" + Credential.hashHex("loci_plain-secret") + "\"");
    assertThat(c.credentials().get(0).sha256()).isEqualTo(Credential.hashHex("loci_plain-secret"));
    assertThat(ConfigFile.load(f)).isEqualTo(c);
    assertThat(Files.list(dir)).containsExactly(f);
  }

  @Test
  void addToken_storesOnlyTheHash_tokenIsRandomBase64Url() throws Exception {
    Path f = dir.resolve("sub").resolve("loci.toml");
    ConfigFile.IssuedToken a =
        ConfigFile.addToken(f, Role.READER, List.of(Grant.of("acme.*")), Optional.empty());
    ConfigFile.IssuedToken b =
        ConfigFile.addToken(f, Role.LEGAL, List.of(Grant.of("*")), Optional.of("auditor"));

    assertThat(a.token()).matches("loci_[A-Za-z0-9_-]{43}").isNotEqualTo(b.token());
    String text = Files.readString(f);
    assertThat(text).doesNotContain(a.token(), b.token());
    ServerConfig c = ConfigFile.load(f);
    assertThat(c.credentials()).extracting(Credential::id).containsExactly(a.id(), "auditor");
    assertThat(c.credentials().get(0).sha256()).isEqualTo(Credential.hashHex(a.token()));
    assertThat(c.credentials().get(1).grants()).containsExactly(Grant.ALL);
    assertThat(a.toString()).doesNotContain(a.token());
    assertThatThrownBy(
            () -> ConfigFile.addToken(f, Role.READER, List.of(Grant.ALL), Optional.of("auditor")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("already exists");
  }

  @Test
  void load_badValues_namedWithTheFile() throws Exception {
    Path f = dir.resolve("loci.toml");
    assertConfigError(f, "[server]\nport = \"x\"\n", "server.port: expected an integer");
    assertConfigError(f, "[server\n", "line 1: not valid TOML");
    assertConfigError(f, "[server]\nallowed_ips = [\"10.0.0.0/99\"]\n", "prefix length");
    assertConfigError(
        f,
        "[[tokens]]\nid = \"x\"\nsha256 = \"%s\"\nrole = \"boss\"\nnamespaces = [\"*\"]\n"
            .formatted("ab".repeat(32)),
        "expected a role of reader, writer, reviewer, admin or legal");
    assertConfigError(
        f,
        "[[tokens]]\nid = \"x\"\nsha256 = \"%s\"\nrole = \"reader\"\nnamespaces = []\n"
            .formatted("ab".repeat(32)),
        "at least one namespace");
    assertConfigError(
        f, "[[tokens]]\nid = \"x\"\nrole = \"reader\"\n", "tokens[0].sha256: missing");
    assertConfigError(f, "[limits]\nbody_bytes = 0\n", "at least 1 byte");
    // one token in two entries could silently give its holder the other entry's role or scope
    assertConfigError(
        f,
        ("[[tokens]]\nid = \"a\"\nsha256 = \"%s\"\nrole = \"reader\"\nnamespaces = [\"acme\"]\n"
                + "[[tokens]]\nid = \"b\"\nsha256 = \"%s\"\nrole = \"admin\"\nnamespaces = [\"*\"]\n")
            .formatted("ab".repeat(32), "ab".repeat(32)),
        "tokens a and b have the same sha256");
  }

  private static void assertConfigError(Path f, String toml, String fragment) throws Exception {
    Files.writeString(f, toml);
    assertThatThrownBy(() -> ConfigFile.load(f))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(f.toString())
        .hasMessageContaining(fragment);
  }

  @Test
  void revokeToken_removesItsTable_keepsCommentsAndTheOtherTables() throws Exception {
    Path f = dir.resolve("loci.toml");
    String sha = "ab".repeat(32);
    Files.writeString(
        f,
        """
        # production
        [server]
        port = 7071

        [[tokens]]
        id = "a"
        sha256 = "%1$s"
        role = "reader"
        namespaces = ["acme"]

        # the ingest job
        [[tokens]]
        id = "b"
        sha256 = "%2$s"
        role = "writer"
        namespaces = [
          "acme.*",
        ]

        [[tokens]] # last
        id = "c"
        sha256 = "%3$s"
        role = "admin"
        namespaces = ["*"]
        """
            .formatted(sha, "cd".repeat(32), "ef".repeat(32)));

    assertThat(ConfigFile.revokeToken(f, "b").role()).isEqualTo(Role.WRITER);
    assertThat(ConfigFile.load(f).credentials())
        .extracting(Credential::id)
        .containsExactly("a", "c");
    assertThat(Files.readString(f))
        .contains("# production", "# the ingest job")
        .doesNotContain("\"b\"");

    ConfigFile.revokeToken(f, "c");
    ConfigFile.revokeToken(f, "a");
    assertThat(ConfigFile.load(f).credentials()).isEmpty();
    assertThat(ConfigFile.load(f).port()).isEqualTo(7071);
  }

  @Test
  void revokeToken_unknownIdOrInlineTable_failsAndChangesNothing() throws Exception {
    Path f = dir.resolve("loci.toml");
    String text =
        "tokens = [{ id = \"a\", sha256 = \"%s\", role = \"reader\", namespaces = [\"x\"] }]\n"
            .formatted("cd".repeat(32));
    Files.writeString(f, text);

    assertThatThrownBy(() -> ConfigFile.revokeToken(f, "zz"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("no token with id 'zz'");
    assertThatThrownBy(() -> ConfigFile.revokeToken(f, "a"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("remove it by hand");
    assertThat(Files.readString(f)).isEqualTo(text);
  }
}
