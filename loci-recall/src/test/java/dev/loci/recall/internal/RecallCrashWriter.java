package dev.loci.recall.internal;

import static dev.loci.ChildJvm.print;

import dev.loci.ChildJvm;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link RecallKillTest}: opens a data directory and puts memory nodes one
 * after another until it is killed, printing {@code N <id> .} only after the put returned (so every
 * line is a promise that the node is durable). Every node holds a word no other node holds ({@link
 * #word}), so recall can find each one. Usage: {@code RecallCrashWriter <dataDir>}. Stops on its
 * own when standard input closes (the parent died) or after two minutes.
 */
public final class RecallCrashWriter {
  static final Namespace NS = Namespace.of("crash.recall");

  private RecallCrashWriter() {}

  /** The word only node {@code i} holds. */
  static String word(int i) {
    return "tok" + i + "q";
  }

  /** The content of node {@code i}. */
  static String content(int i) {
    return "incident "
        + word(i)
        + " in service "
        + (i % 17)
        + " paged the on-call engineer after checkout latency rose";
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    PrintStream out = ChildJvm.start(4);
    Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open();
    RecallMemory recall = RecallMemory.of(loci);
    print(out, "READY");
    for (int i = 0; ; i++) {
      recall.putNode(NS, MemoryNode.builder("n" + i, "incident", content(i)).build());
      print(out, "N n" + i + " .");
    }
  }
}
