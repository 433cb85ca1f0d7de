package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.internal.Json;
import java.util.Objects;

/**
 * A call to another sub-pipeline (extract, validate, ...) made during the trace (spec section 2.3,
 * {@code sub_pipeline_calls}).
 *
 * <p>The spec names this type but not its fields, so it is kept as an opaque JSON object, stored in
 * compact form and written back exactly: whatever fields a peer implementation puts here survive a
 * round trip.
 *
 * @param json the call as a compact JSON object
 */
public record SubPipelineCall(@JsonRawValue @JsonValue String json) {

  /**
   * Checks that {@code json} is one JSON object and compacts it.
   *
   * @throws InvalidRequestException naming {@code sub_pipeline_calls} if it is not a JSON object
   */
  public SubPipelineCall {
    Objects.requireNonNull(json, "json");
    json = Json.compactValue(json, "sub_pipeline_calls");
    if (!json.startsWith("{")) {
      throw new InvalidRequestException(
          "sub_pipeline_calls", "expected a JSON object, found " + abbreviate(json));
    }
  }

  /** A call holding {@code json}, which must be one JSON object. */
  public static SubPipelineCall of(String json) {
    return new SubPipelineCall(json);
  }

  @JsonCreator
  static SubPipelineCall fromTree(JsonNode node) {
    if (!node.isObject()) {
      throw new InvalidRequestException(
          "sub_pipeline_calls", "expected a JSON object, found " + node.getNodeType());
    }
    return new SubPipelineCall(Json.write(node));
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
