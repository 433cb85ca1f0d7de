package dev.loci.ui.internal;

import dev.loci.recall.MemoryPath;
import dev.loci.recall.PathStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An evidence path laid out for drawing as SVG on the server: one box per step, left to right in
 * the order recall took them (wrapping after {@value #PER_ROW}), and an arrow between consecutive
 * steps labelled with the edge type it followed. Each box shows the node id, its score and, in the
 * modes that spread activation, the node's activation. No script is needed to see it.
 *
 * @param width the drawing's width in SVG units
 * @param height its height
 * @param nodes the boxes, in step order
 * @param edges the arrows, in step order
 */
public record PathGraph(int width, int height, List<Node> nodes, List<Edge> edges) {
  static final int PER_ROW = 3;
  static final int W = 170;
  static final int H = 54;
  static final int GAP_X = 110;
  static final int GAP_Y = 46;
  static final int PAD = 12;

  /**
   * One step's box.
   *
   * @param step the step's number, from 1
   * @param x left
   * @param y top
   * @param id the node id
   * @param label the node id, shortened to fit
   * @param score the step's score
   * @param activation the node's activation, where the mode has one
   * @param seed whether the step is a seed (found by the query itself, not through an edge)
   */
  public record Node(
      int step,
      int x,
      int y,
      String id,
      String label,
      double score,
      Optional<Double> activation,
      boolean seed) {
    /** The CSS class of the box. */
    public String css() {
      return seed ? "node seed" : "node";
    }

    /** Text centre x. */
    public int cx() {
      return x + W / 2;
    }
  }

  /**
   * An arrow from one step to the next.
   *
   * @param x1 start x
   * @param y1 start y
   * @param x2 end x
   * @param y2 end y
   * @param type the edge type followed
   */
  public record Edge(int x1, int y1, int x2, int y2, String type) {
    /** Label x. */
    public int lx() {
      return (x1 + x2) / 2;
    }

    /** Label y. */
    public int ly() {
      return (y1 + y2) / 2 - 7;
    }
  }

  /** The layout of {@code path}, with activations from {@code activation} (may be empty). */
  public static PathGraph of(MemoryPath path, Map<String, Double> activation) {
    List<Node> nodes = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    List<PathStep> steps = path.steps();
    for (int i = 0; i < steps.size(); i++) {
      PathStep s = steps.get(i);
      int col = i % PER_ROW;
      int row = i / PER_ROW;
      int x = PAD + col * (W + GAP_X);
      int y = PAD + 14 + row * (H + GAP_Y);
      nodes.add(
          new Node(
              i + 1,
              x,
              y,
              s.nodeId(),
              Html.cut(s.nodeId(), 22),
              s.score(),
              Optional.ofNullable(activation.get(s.nodeId())),
              "seed".equals(s.via())));
      if (i > 0) {
        Node prev = nodes.get(i - 1);
        if (col > 0) {
          edges.add(new Edge(prev.x() + W, prev.y() + H / 2, x - 4, y + H / 2, s.via()));
        } else {
          edges.add(new Edge(prev.cx(), prev.y() + H, x + W / 2, y - 4, s.via()));
        }
      }
    }
    int cols = Math.min(PER_ROW, Math.max(1, steps.size()));
    int rows = Math.max(1, (steps.size() + PER_ROW - 1) / PER_ROW);
    return new PathGraph(
        2 * PAD + cols * W + (cols - 1) * GAP_X,
        2 * PAD + 14 + rows * H + (rows - 1) * GAP_Y,
        nodes,
        edges);
  }
}
