package dev.loci.client.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.loci.StorageException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits a list response ({@code {"items": [...], "next_cursor": ...}}) into the exact text of each
 * item, so a reader that keeps text verbatim (a trace's content) sees what the server wrote, not a
 * re-serialization.
 *
 * @param items the text of each item, in order
 * @param nextCursor the cursor of the next page, if there is one
 */
public record RawItems(List<String> items, Optional<String> nextCursor) {
  private static final JsonFactory FACTORY = new JsonFactory();

  /** Copies the items. */
  public RawItems {
    items = List.copyOf(items);
  }

  /**
   * Reads a list response.
   *
   * @throws StorageException if the server's answer is not a list response
   */
  public static RawItems parse(String json) {
    List<String> items = new ArrayList<>();
    String cursor = null;
    try (JsonParser p = FACTORY.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("expected an object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (name.equals("items") && v == JsonToken.START_ARRAY) {
          while (p.nextToken() != JsonToken.END_ARRAY) {
            int start = (int) p.currentTokenLocation().getCharOffset();
            p.skipChildren();
            p.finishToken();
            items.add(json.substring(start, (int) p.currentLocation().getCharOffset()));
          }
        } else if (name.equals("next_cursor") && v == JsonToken.VALUE_STRING) {
          cursor = p.getText();
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw new StorageException("the server's list answer does not read: " + e.getMessage(), e);
    }
    return new RawItems(items, Optional.ofNullable(cursor));
  }

  /** The items as one JSON array. */
  public String array() {
    return "[" + String.join(",", items) + "]";
  }
}
