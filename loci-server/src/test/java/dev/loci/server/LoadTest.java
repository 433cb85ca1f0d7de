package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.server.ServerFixture.Reply;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.RouteSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load on loopback, then a restart: 16 clients for about 3 seconds doing mixed adds, updates and
 * reads; then the server is closed and the data directory reopened, and it must hold exactly the
 * acknowledged writes. Also: closing drains a request in flight.
 */
class LoadTest {
  private static final int CLIENTS = 16;
  private static final long MILLIS = 3_000;

  @TempDir Path dir;

  @Test
  void mixedLoad_thenReopen_everyAcknowledgedWriteAndNothingElse() throws Exception {
    long seed = System.nanoTime();
    Map<String, String> acked = new ConcurrentHashMap<>(); // uid -> last acknowledged content
    AtomicInteger reads = new AtomicInteger();
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    try (ServerFixture http = new ServerFixture(dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      long deadline = System.nanoTime() + MILLIS * 1_000_000;
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        done.add(
            pool.submit(
                () -> {
                  Random rnd = new Random(seed + client);
                  List<String> mine = new ArrayList<>();
                  String ns = "load.c" + client;
                  for (int i = 0; System.nanoTime() < deadline && i < 100_000; i++) {
                    int op = rnd.nextInt(10);
                    if (mine.isEmpty() || op < 4) {
                      String content = "{\"c\":" + client + ",\"i\":" + i + "}";
                      Reply r =
                          http.post("/v1/ns/" + ns + "/traces", "{\"content\":" + content + "}");
                      if (r.status() != 201) {
                        failures.add("add " + r.status() + " " + r.body());
                        return;
                      }
                      String uid = r.json().get("uid").asText();
                      mine.add(uid);
                      acked.put(ns + "/" + uid, content);
                    } else if (op < 6) {
                      String uid = mine.get(rnd.nextInt(mine.size()));
                      String content = "{\"c\":" + client + ",\"u\":" + i + "}";
                      Reply r =
                          http.send(
                              "PATCH",
                              "/v1/ns/" + ns + "/traces/" + uid,
                              Optional.empty(),
                              Optional.of("{\"content\":" + content + "}"));
                      if (r.status() != 200) {
                        failures.add("update " + r.status() + " " + r.body());
                        return;
                      }
                      acked.put(ns + "/" + uid, content);
                    } else {
                      String uid = mine.get(rnd.nextInt(mine.size()));
                      Reply r = http.get("/v1/ns/" + ns + "/traces/" + uid);
                      String expected = acked.get(ns + "/" + uid);
                      if (r.status() != 200
                          || !r.json().get("content").toString().equals(expected)) {
                        failures.add("read " + r.status() + " " + r.body() + " != " + expected);
                        return;
                      }
                      reads.incrementAndGet();
                    }
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
    }
    assertThat(failures).as("seed %d", seed).isEmpty();
    assertThat(acked.size()).as("writes acknowledged").isGreaterThan(CLIENTS);
    assertThat(reads.get()).isPositive();

    try (Loci loci = Loci.open(dir)) {
      assertThat(loci.traces().total()).isEqualTo(acked.size());
      assertThat(loci.traces().count(NamespaceScope.of("load.*"))).isEqualTo(acked.size());
      acked.forEach(
          (key, content) -> {
            String[] nsUid = key.split("/");
            Trace t = loci.traces().get(Namespace.of(nsUid[0]), nsUid[1]);
            assertThat(t.content()).as(key).isEqualTo(content);
          });
    }
  }

  @Test
  void close_drainsRequestInFlight_thenClosesTheStore() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    RouteSet slow =
        () ->
            List.of(
                Route.of(
                    Route.Method.GET,
                    "/v1/test/slow",
                    Role.READER,
                    Route.NamespaceAccess.NONE,
                    false,
                    ex -> {
                      entered.countDown();
                      Thread.sleep(700);
                      ex.json(200, "{\"slow\":true}");
                    }));
    ServerFixture http = new ServerFixture(dir, ServerConfig.defaults(), List.of(l -> slow));
    http.add("a", "{\"content\":1}");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Reply> inFlight = pool.submit(() -> http.get("/v1/test/slow"));
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      http.close();
      Reply r = inFlight.get(10, TimeUnit.SECONDS);
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("{\"slow\":true}");
    } finally {
      pool.shutdownNow();
    }
    try (Loci loci = Loci.open(dir)) { // the lock was released: the store was closed
      assertThat(loci.traces().total()).isEqualTo(1);
    }
  }
}
