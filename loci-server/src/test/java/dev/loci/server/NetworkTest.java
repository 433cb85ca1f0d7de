package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Loci;
import dev.loci.server.ServerFixture.Reply;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Client addresses: the CIDR allowlist, X-Forwarded-For from trusted proxies, the bind gate. */
class NetworkTest {
  @TempDir Path dir;
  private ServerFixture http;

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
  }

  private Reply get(String path, String... forwardedFor) {
    HttpRequest.Builder b = http.request(path, Optional.empty());
    for (String xff : forwardedFor) {
      b.header("X-Forwarded-For", xff);
    }
    return http.send(b.GET().build());
  }

  private static InetAddress ip(String s) {
    return Cidr.parseAddress(s).orElseThrow();
  }

  @Test
  void cidr_ipv4AndIpv6Blocks() {
    assertThat(Cidr.of("10.0.0.0/8").contains(ip("10.200.3.4"))).isTrue();
    assertThat(Cidr.of("10.0.0.0/8").contains(ip("11.0.0.1"))).isFalse();
    assertThat(Cidr.of("10.1.2.3/16").toString()).isEqualTo("10.1.0.0/16");
    assertThat(Cidr.of("192.0.2.7").contains(ip("192.0.2.7"))).isTrue();
    assertThat(Cidr.of("192.0.2.7").contains(ip("192.0.2.8"))).isFalse();
    assertThat(Cidr.of("fd00::/8").contains(ip("fd12:3456::1"))).isTrue();
    assertThat(Cidr.of("fd00::/8").contains(ip("fe80::1"))).isFalse();
    assertThat(Cidr.of("::1/128").contains(ip("[::1]"))).isTrue();
    assertThat(Cidr.of("10.0.0.0/8").contains(ip("::ffff:10.0.0.1"))).isTrue();
    assertThat(Cidr.of("0.0.0.0/0").contains(ip("::1"))).isFalse();
    assertThat(Cidr.parseAddress("localhost")).isEmpty();
    assertThat(Cidr.parseAddress("example.com")).isEmpty();
    assertThatThrownBy(() -> Cidr.of("10.0.0.0/33")).hasMessageContaining("0 to 32");
    assertThatThrownBy(() -> Cidr.of("ten/8")).hasMessageContaining("found 'ten/8'");
  }

  @Test
  void allowlist_clientOutside_403ExceptHealth() {
    http =
        new ServerFixture(
            dir, ServerConfig.defaults().withNetwork(List.of(Cidr.of("10.0.0.0/8")), List.of()));
    HttpApiTest.assertProblem(get("/v1/ns/a/traces"), 403, "address-not-allowed");
    assertThat(get("/health").status()).isEqualTo(200);
  }

  @Test
  void allowlist_loopbackInside_allowed() {
    http =
        new ServerFixture(
            dir,
            ServerConfig.defaults()
                .withNetwork(List.of(Cidr.of("127.0.0.0/8"), Cidr.of("::1/128")), List.of()));
    assertThat(get("/v1/ns/a/traces").status()).isEqualTo(200);
  }

  @Test
  void forwardedFor_fromUntrustedPeer_ignored() {
    http =
        new ServerFixture(
            dir, ServerConfig.defaults().withNetwork(List.of(Cidr.of("10.1.0.0/16")), List.of()));
    HttpApiTest.assertProblem(get("/v1/ns/a/traces", "10.1.2.3"), 403, "address-not-allowed");
  }

  @Test
  void forwardedFor_fromTrustedProxy_rightMostUntrustedHopIsTheClient() {
    http =
        new ServerFixture(
            dir,
            ServerConfig.defaults()
                .withNetwork(
                    List.of(Cidr.of("10.1.0.0/16")),
                    List.of(Cidr.of("127.0.0.1"), Cidr.of("192.168.50.0/24"))));
    assertThat(get("/v1/ns/a/traces", "10.1.2.3").status()).isEqualTo(200);
    assertThat(get("/v1/ns/a/traces", "10.1.2.3, 192.168.50.4").status()).isEqualTo(200);
    assertThat(get("/v1/ns/a/traces", "203.0.113.9, 10.1.2.3").status())
        .as("a client cannot spoof by writing an allowed address first")
        .isEqualTo(200);
    HttpApiTest.assertProblem(
        get("/v1/ns/a/traces", "10.1.2.3, 203.0.113.9"), 403, "address-not-allowed");
    HttpApiTest.assertProblem(
        get("/v1/ns/a/traces", "10.1.2.3", "203.0.113.9"), 403, "address-not-allowed");
    HttpApiTest.assertProblem(get("/v1/ns/a/traces", "not-an-address"), 403, "address-not-allowed");
    HttpApiTest.assertProblem(get("/v1/ns/a/traces"), 403, "address-not-allowed");
    assertThat(get("/v1/ns/a/traces", "[fd00::1]:443, 10.1.9.9:5000").status()).isEqualTo(200);
  }

  @Test
  void bind_nonLoopbackWithoutCredential_refusedWithTheFix() {
    Path data = dir.resolve("data");
    LociServer.Builder b =
        LociServer.builder(Loci.builder().dataDir(data))
            .config(ServerConfig.defaults().withHost("0.0.0.0").withPort(0));
    assertThatThrownBy(b::start)
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("refusing to listen on 0.0.0.0")
        .hasMessageContaining("loci token create --role admin --ns '*'");
    assertThat(Files.exists(data)).as("nothing opened").isFalse();
  }

  @Test
  void bind_loopbackWithoutCredential_allowsEveryRequest() {
    http = new ServerFixture(dir);
    assertThat(http.post("/v1/ns/a/traces", "{\"content\":1}").status()).isEqualTo(201);
    assertThat(http.get("/metrics").status()).isEqualTo(200);
  }
}
