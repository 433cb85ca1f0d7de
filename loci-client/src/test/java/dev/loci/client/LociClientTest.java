package dev.loci.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.Trace;
import dev.loci.recall.DemoCorpus;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.server.Role;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link LociApiContract} over a real {@link LociServer} on a port of its own, with a reviewer
 * token; then what only a remote client meets: tokens, scopes, and records equal to the server's.
 */
class LociClientTest extends LociApiContract {
  static final String REVIEWER = "reviewer-token-0123456789";
  static final String OTHER_NS = "other-token-0123456789";
  static final String LEGAL = "legal-token-0123456789";

  @TempDir Path dir;
  private TestServer server;
  private LociClient client;

  @BeforeEach
  void start() {
    server =
        TestServer.start(
            dir,
            TestServer.credential("reviewer", REVIEWER, Role.REVIEWER, "acme.*"),
            TestServer.credential("other", OTHER_NS, Role.WRITER, "other.*"),
            TestServer.credential("legal", LEGAL, Role.LEGAL, "acme.*"));
    client = connect(REVIEWER);
  }

  private LociClient connect(String token) {
    return server.client(token);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Override
  LociApi api() {
    return client;
  }

  @Test
  void records_equalWhatTheServerHolds() {
    Trace t = client.addTrace(NS, "{\"note\":\"caf\\u00e9 \u00e9\",\"n\":1e3}", List.of("a", "b"));
    Trace held = server.loci().traces().get(NS, t.uid());
    assertThat(t).isEqualTo(held);
    assertThat(t.version()).isEqualTo(held.version());

    DemoCorpus.Document doc = DemoCorpus.documents().get(0);
    client.ingest(NS, doc.pack(), List.of(doc.document()));
    RecallQuery q =
        RecallQuery.builder("What is the penalty for a late delivery?", RecallMode.HYBRID)
            .k(4)
            .build();
    try (EmbeddedLoci local = EmbeddedLoci.of(server.loci())) {
      assertThat(client.recall(NS, q)).isEqualTo(local.recall(NS, q));
    }
  }

  @Test
  void tokens_missingRefusedOrOutOfScope_areRemoteExceptionsAndWriteNothing() {
    long before = server.loci().lastSeq();
    LociClient anonymous =
        LociClient.builder(URI.create("http://127.0.0.1:" + server.port())).build();
    assertThatThrownBy(() -> anonymous.addTrace(NS, "{}", List.of()))
        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(401));
    assertThatThrownBy(() -> connect("wrong-token-0123456789").addTrace(NS, "{}", List.of()))
        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(401));
    assertThatThrownBy(() -> connect(OTHER_NS).addTrace(NS, "{}", List.of()))
        .isInstanceOfSatisfying(
            RemoteException.class,
            e -> {
              assertThat(e.status()).isEqualTo(403);
              assertThat(e.type()).isEqualTo("forbidden");
            });
    assertThat(server.loci().lastSeq()).isEqualTo(before);
    assertThat(connect(OTHER_NS).addTrace(Namespace.of("other.bob"), "{}", List.of()).namespace())
        .isEqualTo(Namespace.of("other.bob"));
  }

  @Test
  void traceHistory_needsTheLegalToken() {
    Trace a = client.addTrace(NS, "{\"v\":1}", List.of());
    Trace b = client.reviseTrace(NS, a.uid(), "{\"v\":2}", List.of(), a.version());
    assertThatThrownBy(() -> client.traceHistory(NS, b.uid()))
        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(403));
    assertThat(connect(LEGAL).traceHistory(NS, b.uid())).containsExactly(b, a);
  }

  @Test
  void unreachableServer_isAStorageExceptionNamingIt() {
    int port = server.port();
    server.close();
    LociClient gone =
        LociClient.builder(URI.create("http://127.0.0.1:" + port))
            .timeout(Duration.ofSeconds(2))
            .build();
    assertThatThrownBy(() -> gone.trace(NS, "x"))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("127.0.0.1:" + port);
    server = TestServer.start(dir.resolve("again")); // for stop()
  }

  @Test
  void builder_refusesWhatIsNoServerUrl() {
    assertThatThrownBy(() -> LociClient.builder(URI.create("ftp://example.org")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http");
  }
}
