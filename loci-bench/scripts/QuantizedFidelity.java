import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.embed.onnx.OnnxEmbeddingProvider;
import dev.loci.embed.onnx.OnnxModel;
import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * How close the 8-bit variants of bge-small stay to the full model on LoCoMo's first N turns: the
 * cosine of each turn's vector with the full model's (mean and minimum), and how many of each
 * turn's 10 nearest other turns (among the first 200 turns as queries) the variant shares with the
 * full model. Batches of 16, as the product embeds.
 *
 * <p>Run (from a directory holding the CLI jar and its lib/): {@code java -Xmx4g -cp
 * "loci.jar:lib/*" QuantizedFidelity.java locomo10.json 600}. See docs/benchmarks.md,
 * "bge-small-int8: the full model quantized here, at load".
 */
public class QuantizedFidelity {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    List<String> texts = new ArrayList<>();
    for (JsonNode conv : new ObjectMapper().readTree(new File(args[0]))) {
      JsonNode c = conv.path("conversation");
      for (int s = 1; s < 40; s++)
        for (JsonNode t : c.path("session_" + s)) if (texts.size() < n) texts.add(t.path("text").asText());
    }
    Map<String, OnnxModel> models = new LinkedHashMap<>();
    models.put("bge-small", OnnxModel.BGE_SMALL);
    models.put("bge-small-q", OnnxModel.BGE_SMALL_Q);
    models.put("bge-small-int8", OnnxModel.BGE_SMALL_INT8);
    Map<String, List<float[]>> vectors = new LinkedHashMap<>();
    for (var e : models.entrySet()) {
      try (OnnxEmbeddingProvider p = OnnxEmbeddingProvider.create(e.getValue(), 16)) {
        vectors.put(e.getKey(), p.embedDocuments(texts));
      }
    }
    List<float[]> full = vectors.get("bge-small");
    for (String k : List.of("bge-small-q", "bge-small-int8")) {
      List<float[]> v = vectors.get(k);
      double sum = 0, min = 1, overlap = 0;
      for (int i = 0; i < texts.size(); i++) {
        double d = dot(full.get(i), v.get(i));
        sum += d;
        min = Math.min(min, d);
      }
      int queries = Math.min(200, texts.size());
      for (int q = 0; q < queries; q++) {
        Set<Integer> a = top(full, q, 10), b = top(v, q, 10);
        a.retainAll(b);
        overlap += a.size() / 10.0;
      }
      System.out.printf("%s: mean cosine with bge-small %.5f, min %.5f over %d turns; top-10 neighbours shared %.3f%n",
          k, sum / texts.size(), min, texts.size(), overlap / queries);
    }
  }

  static double dot(float[] a, float[] b) {
    double d = 0;
    for (int j = 0; j < a.length; j++) d += a[j] * b[j];
    return d;
  }

  static Set<Integer> top(List<float[]> vs, int self, int k) {
    PriorityQueue<double[]> pq = new PriorityQueue<>(Comparator.comparingDouble(x -> x[0]));
    for (int i = 0; i < vs.size(); i++) {
      if (i == self) continue;
      pq.add(new double[] {dot(vs.get(self), vs.get(i)), i});
      if (pq.size() > k) pq.poll();
    }
    Set<Integer> s = new HashSet<>();
    for (double[] x : pq) s.add((int) x[1]);
    return s;
  }
}
