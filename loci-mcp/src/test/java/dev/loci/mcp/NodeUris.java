package dev.loci.mcp;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Builds node resource URIs as a client would. */
final class NodeUris {
  private NodeUris() {}

  static String node(String ns, String id) {
    return "loci://ns/"
        + ns
        + "/nodes/"
        + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
