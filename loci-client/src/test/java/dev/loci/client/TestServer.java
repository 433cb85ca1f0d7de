package dev.loci.client;

import dev.loci.Loci;
import dev.loci.server.Credential;
import dev.loci.server.Grant;
import dev.loci.server.LociServer;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real {@link LociServer} on a free loopback port with the credentials a test names, for the
 * tests of this module and of the adapters that reach a server through {@link LociClient}.
 */
public final class TestServer implements AutoCloseable {
  private final LociServer server;

  private TestServer(LociServer server) {
    this.server = server;
  }

  /** Starts a server over {@code dataDir} accepting exactly {@code credentials}. */
  public static TestServer start(Path dataDir, Credential... credentials) {
    return new TestServer(
        LociServer.builder(Loci.builder().dataDir(dataDir))
            .config(
                ServerConfig.defaults()
                    .withHost("127.0.0.1")
                    .withPort(0)
                    .withCredentials(List.of(credentials)))
            .drain(Duration.ofSeconds(5))
            .start());
  }

  /** A credential with one grant: {@code role} over the namespaces {@code scope} matches. */
  public static Credential credential(String id, String token, Role role, String scope) {
    return new Credential(id, Credential.hashHex(token), role, List.of(Grant.of(scope)));
  }

  /** The instance the server serves. */
  public Loci loci() {
    return server.loci();
  }

  /** The port the server listens on. */
  public int port() {
    return server.port();
  }

  /** The server's base URL, for example {@code http://127.0.0.1:41234/}. */
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.port() + "/");
  }

  /** A client presenting {@code token}. */
  public LociClient client(String token) {
    return LociClient.builder(url()).token(token).build();
  }

  @Override
  public void close() {
    server.close();
  }
}
