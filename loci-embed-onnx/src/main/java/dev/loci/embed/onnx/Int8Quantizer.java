package dev.loci.embed.onnx;

import dev.loci.embed.onnx.ProtoWire.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a float ONNX model so that its products with weight matrices run in 8-bit integers
 * (dynamic quantization), leaving everything else in float.
 *
 * <p>Each {@code MatMul} whose second input is a two-dimensional float initializer {@code W} (K x
 * N) becomes: {@code DynamicQuantizeLinear} of its first input (8-bit unsigned, one scale and zero
 * point for the whole tensor, computed per run, shared by the products that read the same input),
 * {@code MatMulInteger} with {@code W} quantized to signed 8 bits <em>per column</em> and
 * symmetrically ({@code round(W[k][n] / s[n])}, {@code s[n] = max_k |W[k][n]| / 127}, zero point
 * 0), a {@code Cast} of the 32-bit sums to float and a {@code Mul} by the input's scale times the
 * column scales. These are the standard ONNX operators (opset 10 and 11) that ONNX Runtime runs
 * with its 8-bit kernels (VNNI where the CPU has it) and fuses into one operator.
 *
 * <p>Why here and not the published quantized model ({@code bge-small-en-v1.5-q}): that one also
 * quantizes the token, position and type embedding tables with one scale per table, which costs
 * accuracy and saves no time (a table lookup is no product), and its weights carry zero points.
 * Measured on 600 LoCoMo turns (loci-bench/scripts/QuantizedFidelity.java): cosine with the float
 * model's vectors 0.9975 against 0.9968, and 1.14x its texts/s (docs/benchmarks.md).
 */
final class Int8Quantizer {
  private static final int MODEL_GRAPH = 7;
  private static final int GRAPH_NODE = 1;
  private static final int GRAPH_INITIALIZER = 5;
  private static final int NODE_INPUT = 1;
  private static final int NODE_OUTPUT = 2;
  private static final int NODE_NAME = 3;
  private static final int NODE_OP_TYPE = 4;
  private static final int NODE_ATTRIBUTE = 5;
  private static final int NODE_DOMAIN = 7;
  private static final int TENSOR_DIMS = 1;
  private static final int TENSOR_DATA_TYPE = 2;
  private static final int TENSOR_NAME = 8;
  private static final int TENSOR_RAW_DATA = 9;
  private static final int ATTRIBUTE_NAME = 1;
  private static final int ATTRIBUTE_INT = 3;
  private static final int ATTRIBUTE_TYPE = 20;
  private static final int ATTRIBUTE_TYPE_INT = 2;
  private static final int FLOAT = 1;
  private static final int INT8 = 3;
  private static final String SUFFIX = ".int8";

  private Int8Quantizer() {}

  /** A rewritten model, and how many of its products were quantized. */
  record Quantized(byte[] model, int products) {}

  /** A model's weight products quantized, as above. */
  static Quantized quantize(byte[] model) {
    ProtoWire.Writer out = new ProtoWire.Writer(model.length / 2);
    int products = -1;
    for (Field f : ProtoWire.parse(model, 0, model.length)) {
      if (f.number() == MODEL_GRAPH && f.type() == ProtoWire.LEN) {
        Quantized graph = graph(f.message(), f.len() / 2);
        out.bytes(MODEL_GRAPH, graph.model());
        products = graph.products();
      } else {
        out.field(f);
      }
    }
    if (products < 0) {
      throw new IllegalArgumentException("not an ONNX model: it holds no graph");
    }
    return new Quantized(out.toBytes(), products);
  }

  /** A node's fields that matter here. */
  private record Node(String op, String domain, String name, List<String> inputs, String output) {
    static Node of(Field f) {
      String op = "";
      String domain = "";
      String name = "";
      List<String> inputs = new ArrayList<>(2);
      List<String> outputs = new ArrayList<>(1);
      for (Field g : f.message()) {
        switch (g.number()) {
          case NODE_INPUT -> inputs.add(g.string());
          case NODE_OUTPUT -> outputs.add(g.string());
          case NODE_NAME -> name = g.string();
          case NODE_OP_TYPE -> op = g.string();
          case NODE_DOMAIN -> domain = g.string();
          default -> {}
        }
      }
      return new Node(op, domain, name, inputs, outputs.size() == 1 ? outputs.get(0) : null);
    }

    boolean isMatMul() {
      return op.equals("MatMul")
          && (domain.isEmpty() || domain.equals("ai.onnx"))
          && inputs.size() == 2
          && output != null;
    }
  }

  /** A two-dimensional float initializer with its values in {@code raw_data}. */
  private record Weight(String name, int rows, int cols, Field raw) {
    static Weight of(Field f) {
      String name = null;
      int dataType = 0;
      List<Long> dims = new ArrayList<>(2);
      Field raw = null;
      for (Field g : f.message()) {
        switch (g.number()) {
          case TENSOR_DIMS -> {
            if (g.type() == ProtoWire.VARINT) {
              dims.add(g.varint());
            } else {
              return null; // packed dimensions: not what the exporters write; left in float
            }
          }
          case TENSOR_DATA_TYPE -> dataType = (int) g.varint();
          case TENSOR_NAME -> name = g.string();
          case TENSOR_RAW_DATA -> raw = g;
          default -> {}
        }
      }
      if (name == null || dataType != FLOAT || dims.size() != 2 || raw == null) {
        return null;
      }
      long rows = dims.get(0);
      long cols = dims.get(1);
      if (rows <= 0 || cols <= 0 || rows * cols * Float.BYTES != raw.len()) {
        return null;
      }
      return new Weight(name, (int) rows, (int) cols, raw);
    }
  }

  /** A field of the graph, with its node or its weight where it is one (parsed once). */
  private record Entry(Field field, Node node, Weight weight) {}

  private static Quantized graph(List<Field> graph, int size) {
    List<Entry> entries = new ArrayList<>(graph.size());
    Map<String, Weight> weights = new HashMap<>();
    Map<String, Integer> uses = new HashMap<>();
    for (Field f : graph) {
      boolean message = f.type() == ProtoWire.LEN;
      Node n = message && f.number() == GRAPH_NODE ? Node.of(f) : null;
      Weight w = message && f.number() == GRAPH_INITIALIZER ? Weight.of(f) : null;
      entries.add(new Entry(f, n, w));
      if (w != null) {
        weights.put(w.name(), w);
      }
      if (n != null) {
        for (String in : n.inputs()) {
          uses.merge(in, 1, Integer::sum);
        }
      }
    }
    ProtoWire.Writer out = new ProtoWire.Writer(size);
    Map<String, String> quantizedInputs = new HashMap<>(); // float input -> its 8-bit form's name
    Map<String, Integer> quantizedUses = new HashMap<>();
    List<byte[]> added = new ArrayList<>();
    List<Entry> initializers = new ArrayList<>();
    int products = 0;
    for (Entry e : entries) {
      Field f = e.field();
      if (f.number() == GRAPH_INITIALIZER) {
        initializers.add(e);
        continue;
      }
      Node n = e.node();
      Weight w = n != null && n.isMatMul() ? weights.get(n.inputs().get(1)) : null;
      if (w == null) {
        out.field(f);
        continue;
      }
      String wq = w.name() + SUFFIX;
      if (quantizedUses.merge(w.name(), 1, Integer::sum) == 1) {
        added.addAll(quantizeWeight(w, wq));
      }
      String a = n.inputs().get(0);
      String aq = quantizedInputs.get(a);
      if (aq == null) {
        aq = a + SUFFIX;
        quantizedInputs.put(a, aq);
        out.bytes(
            GRAPH_NODE,
            node(
                "DynamicQuantizeLinear",
                List.of(a),
                List.of(aq, aq + ".scale", aq + ".zero_point"),
                aq + ".quantize",
                -1));
      }
      String y = n.output();
      String name = n.name().isEmpty() ? y : n.name();
      out.bytes(
          GRAPH_NODE,
          node(
              "MatMulInteger",
              List.of(aq, wq, aq + ".zero_point", wq + ".zero_point"),
              List.of(y + SUFFIX),
              name + SUFFIX,
              -1));
      out.bytes(
          GRAPH_NODE,
          node("Cast", List.of(y + SUFFIX), List.of(y + ".float"), name + ".cast", FLOAT));
      out.bytes(
          GRAPH_NODE,
          node(
              "Mul",
              List.of(aq + ".scale", wq + ".scale"),
              List.of(y + ".scale"),
              name + ".scale",
              -1));
      out.bytes(
          GRAPH_NODE,
          node("Mul", List.of(y + ".float", y + ".scale"), List.of(y), name + ".rescale", -1));
      products++;
    }
    for (Entry e : initializers) {
      Weight w = e.weight();
      boolean replaced =
          w != null
              && quantizedUses.getOrDefault(w.name(), 0).equals(uses.getOrDefault(w.name(), 0));
      if (!replaced) {
        out.field(e.field()); // still read in float by something else, or not a weight at all
      }
    }
    for (byte[] t : added) {
      out.bytes(GRAPH_INITIALIZER, t);
    }
    return new Quantized(out.toBytes(), products);
  }

  /** The weight in signed 8 bits per column, its column scales and zero points (all 0). */
  private static List<byte[]> quantizeWeight(Weight w, String name) {
    Field raw = w.raw();
    FloatBuffer values =
        ByteBuffer.wrap(raw.buf(), raw.off(), raw.len())
            .slice()
            .order(ByteOrder.LITTLE_ENDIAN)
            .asFloatBuffer();
    int rows = w.rows();
    int cols = w.cols();
    float[] scale = new float[cols];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        scale[c] = Math.max(scale[c], Math.abs(values.get(r * cols + c)));
      }
    }
    for (int c = 0; c < cols; c++) {
      scale[c] = scale[c] > 0 ? scale[c] / 127f : 1f; // an all-zero column stays zero
    }
    byte[] q = new byte[rows * cols];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        int v = Math.round(values.get(r * cols + c) / scale[c]);
        q[r * cols + c] = (byte) Math.max(-127, Math.min(127, v));
      }
    }
    ByteBuffer scales = ByteBuffer.allocate(cols * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (float s : scale) {
      scales.putFloat(s);
    }
    return List.of(
        tensor(name, INT8, new long[] {rows, cols}, q),
        tensor(name + ".scale", FLOAT, new long[] {cols}, scales.array()),
        tensor(name + ".zero_point", INT8, new long[] {cols}, new byte[cols]));
  }

  private static byte[] tensor(String name, int dataType, long[] dims, byte[] raw) {
    ProtoWire.Writer t = new ProtoWire.Writer(raw.length + name.length() + 32);
    for (long d : dims) {
      t.varint(TENSOR_DIMS, d);
    }
    return t.varint(TENSOR_DATA_TYPE, dataType)
        .string(TENSOR_NAME, name)
        .bytes(TENSOR_RAW_DATA, raw)
        .toBytes();
  }

  /** A node of the default domain; {@code castTo} is a {@code Cast}'s target type, or -1. */
  private static byte[] node(
      String op, List<String> inputs, List<String> outputs, String name, int castTo) {
    ProtoWire.Writer n = new ProtoWire.Writer(256);
    inputs.forEach(in -> n.string(NODE_INPUT, in));
    outputs.forEach(o -> n.string(NODE_OUTPUT, o));
    n.string(NODE_NAME, name).string(NODE_OP_TYPE, op);
    if (castTo >= 0) {
      byte[] to =
          new ProtoWire.Writer(16)
              .string(ATTRIBUTE_NAME, "to")
              .varint(ATTRIBUTE_INT, castTo)
              .varint(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_INT)
              .toBytes();
      n.bytes(NODE_ATTRIBUTE, to);
    }
    return n.toBytes();
  }
}
