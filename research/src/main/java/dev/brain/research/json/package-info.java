/**
 * brain's one JSON configuration, {@link dev.brain.research.json.Json}: a leaf package (it depends
 * on no other research package), so every research package and every surface can use it without a
 * package cycle.
 */
package dev.brain.research.json;
