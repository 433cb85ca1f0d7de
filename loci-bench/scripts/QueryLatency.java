import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.embed.onnx.Embeddings;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Query embedding latency of bge-small, bge-small-q and bge-small-qd on LoCoMo's questions: the
 * three providers take turns on every question (who goes first rotates per round) in one JVM, so
 * load hits them alike; prints mean, p50, p90 and p99 of {@code embedQuery} in milliseconds.
 *
 * <p>Run (from a directory holding the CLI jar and its lib/): {@code java -cp "loci.jar:lib/*"
 * QueryLatency.java locomo10.json QUESTIONS ROUNDS}, e.g. 300 3. See docs/benchmarks.md,
 * "bge-small-q and bge-small-qd against the full model on every conversation".
 */
public class QueryLatency {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    List<String> qs = new ArrayList<>();
    for (JsonNode s : new ObjectMapper().readTree(new File(args[0])))
      for (JsonNode q : s.path("qa")) if (qs.size() < n) qs.add(q.path("question").asText());
    String[] names = {"bge-small", "bge-small-q", "bge-small-qd"};
    EmbeddingProvider[] ps = new EmbeddingProvider[names.length];
    for (int i = 0; i < names.length; i++) { ps[i] = Embeddings.named(names[i]); ps[i].embedQuery("warm up " + i); }
    for (int w = 0; w < 20; w++) for (EmbeddingProvider p : ps) p.embedQuery(qs.get(w % qs.size()));
    List<List<Double>> ms = new ArrayList<>();
    for (int i = 0; i < names.length; i++) ms.add(new ArrayList<>());
    for (int r = 0; r < rounds; r++)
      for (String q : qs)
        for (int i = 0; i < names.length; i++) {
          int k = (i + r) % names.length; // rotate who goes first
          long t = System.nanoTime();
          ps[k].embedQuery(q);
          ms.get(k).add((System.nanoTime() - t) / 1e6);
        }
    System.out.printf("%d questions x %d rounds, load %s%n", qs.size(), rounds,
        new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).trim());
    System.out.println("| provider | mean ms | p50 ms | p90 ms | p99 ms |");
    System.out.println("| --- | ---: | ---: | ---: | ---: |");
    for (int i = 0; i < names.length; i++) {
      double[] a = ms.get(i).stream().mapToDouble(Double::doubleValue).sorted().toArray();
      double mean = Arrays.stream(a).average().orElse(0);
      System.out.printf("| %s | %.2f | %.2f | %.2f | %.2f |%n", names[i], mean, a[a.length / 2],
          a[(int) (a.length * 0.9)], a[Math.min(a.length - 1, (int) (a.length * 0.99))]);
    }
  }
}
