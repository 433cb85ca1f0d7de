package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Loci;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running server follows its {@code loci.toml}: tokens created or revoked while it runs take
 * effect without a restart, and a file that would open the server or does not parse changes
 * nothing.
 */
class CredentialReloadTest {
  @TempDir Path dir;
  LociServer server;
  final HttpClient client = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** Adds a reader of {@code acme} to the file and returns its token. */
  String reader(String id) {
    return ConfigFile.addToken(file(), Role.READER, List.of(Grant.of("acme")), Optional.of(id))
        .token();
  }

  Path file() {
    return dir.resolve(ConfigFile.NAME);
  }

  void start(Duration every) {
    server =
        LociServer.builder(Loci.builder().dataDir(dir))
            .config(ConfigFile.load(file()).withHost("127.0.0.1").withPort(0))
            .configFile(file())
            .reloadEvery(every)
            .start();
  }

  int status(String token) throws Exception {
    HttpRequest r =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/v1/ns/acme/trace-count"))
            .header("Authorization", "Bearer " + token)
            .build();
    return client.send(r, HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  static int within(Duration limit, IntSupplier status, int expected) throws Exception {
    long end = System.nanoTime() + limit.toNanos();
    int last = status.getAsInt();
    while (last != expected && System.nanoTime() < end) {
      Thread.sleep(20);
      last = status.getAsInt();
    }
    return last;
  }

  IntSupplier statusOf(String token) {
    return () -> {
      try {
        return status(token);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
  }

  @Test
  void revokedToken_isRefusedAndANewOneAccepted_withoutARestart() throws Exception {
    String old = reader("old");
    start(Duration.ofMillis(50));
    assertThat(status(old)).isEqualTo(200);

    String fresh = reader("new");
    ConfigFile.revokeToken(file(), "old");

    assertThat(within(Duration.ofSeconds(10), statusOf(old), 401)).isEqualTo(401);
    assertThat(status(fresh)).isEqualTo(200);
    assertThat(server.credentials()).extracting(Credential::id).containsExactly("new");
  }

  @Test
  void aFileThatDoesNotParse_keepsTheCredentialsInForce() throws Exception {
    String token = reader("a");
    start(Duration.ZERO);
    String good = Files.readString(file());

    Files.writeString(file(), good + "\n[[tokens]\nid = ");
    assertThat(server.reloadCredentials()).isFalse();
    assertThat(status(token)).isEqualTo(200);

    Files.writeString(file(), good.replace("role = \"reader\"", "role = \"boss\""));
    assertThat(server.reloadCredentials()).isFalse();
    assertThat(status(token)).isEqualTo(200);

    // a second entry with the same hash and the admin role is refused, not merged
    String sha = good.replaceAll("(?s).*sha256 = \"([0-9a-f]{64})\".*", "$1");
    Files.writeString(
        file(),
        good
            + "\n[[tokens]]\nid = \"raised\"\nsha256 = \""
            + sha
            + "\"\nrole = \"admin\"\nnamespaces = [\"*\"]\n");
    assertThat(server.reloadCredentials()).isFalse();
    assertThat(server.credentials()).extracting(Credential::id).doesNotContain("raised");
  }

  @Test
  void removingTheLastToken_doesNotOpenARunningServer() throws Exception {
    String token = reader("only");
    start(Duration.ZERO);

    ConfigFile.revokeToken(file(), "only");
    assertThat(server.reloadCredentials()).isFalse();
    assertThat(status("anything")).isEqualTo(401);
    assertThat(status(token)).isEqualTo(200);
  }

  @Test
  void anOpenServer_closesWhenItsFirstTokenIsCreated() throws Exception {
    start(Duration.ZERO);
    assertThat(status("anything")).isEqualTo(200); // open mode, loopback
    String token = reader("first");

    assertThat(server.reloadCredentials()).isTrue();
    assertThat(status("anything")).isEqualTo(401);
    assertThat(status(token)).isEqualTo(200);
    assertThat(server.reloadCredentials()).isFalse(); // unchanged since
  }
}
