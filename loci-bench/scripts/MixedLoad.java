import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.govern.*;
import dev.loci.recall.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/**
 * Mixed load: 4 threads proposing governed memories durably (each also a recall node whose text is
 * indexed) while 2 threads run lexical recalls back to back over the same namespace, for ROUNDS
 * rounds of PER proposals per writer; prints proposals/s, recalls/s and recall latency per round.
 * Not a peer benchmark: it shows what reads cost writes and writes cost reads (every text search
 * must see every acknowledged write). Run from the repository root after building the CLI:
 *
 * <pre>
 * ./mvnw -B -q -DskipTests package -pl loci-cli -am
 * java -Xmx4g -cp "loci-cli/target/loci.jar:loci-cli/target/lib/*" loci-bench/scripts/MixedLoad.java 1000 3
 * </pre>
 */
public class MixedLoad {
  public static void main(String[] a) throws Exception {
    int per = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    Path dir = Files.createTempDirectory("loci-mixed-load");
    Namespace ns = Namespace.of("bench");
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      RecallMemory recall = RecallMemory.of(loci);
      AtomicLong seq = new AtomicLong();
      for (int r = 0; r < rounds; r++) {
        ExecutorService ex = Executors.newFixedThreadPool(6);
        AtomicBoolean stop = new AtomicBoolean();
        List<Long> lat = Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime();
        List<Future<?>> ws = new ArrayList<>();
        for (int w = 0; w < 4; w++) ws.add(ex.submit(() -> {
          for (int i = 0; i < per; i++) {
            long n = seq.incrementAndGet();
            gov.propose(ns, MemoryDraft.of(MemoryType.KNOWLEDGE, "p item " + n + " alpha beta gamma delta", "bench"));
          }
          return null;
        }));
        List<Future<?>> rs = new ArrayList<>();
        for (int k = 0; k < 2; k++) { int kk = k; rs.add(ex.submit(() -> {
          Random rnd = new Random(kk);
          while (!stop.get()) {
            long s0 = System.nanoTime();
            recall.recall(ns, RecallQuery.builder("item " + rnd.nextInt((int) Math.max(1, seq.get())) + " alpha", RecallMode.LEXICAL).k(10).build());
            lat.add(System.nanoTime() - s0);
          }
          return null;
        })); }
        for (Future<?> f : ws) f.get();
        double s = (System.nanoTime() - t0) / 1e9;
        stop.set(true);
        for (Future<?> f : rs) f.get();
        ex.shutdown();
        List<Long> l = new ArrayList<>(lat); Collections.sort(l);
        System.out.printf("round %d: %.0f proposals/s, %.0f lexical recalls/s, recall p50 %.2f ms p99 %.2f ms%n", r, 4 * per / s, l.size() / s,
            l.get(l.size() / 2) / 1e6, l.get((int) (l.size() * 0.99)) / 1e6);
      }
    }
  }
}
