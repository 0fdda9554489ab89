# Sourced by bin/brain and bin/test: finds a JDK 21+ and exports JAVA_HOME.
# Order: $JAVA_HOME, `java` on PATH, then the usual JDK folders. Prints how to get one if none fits.

brain_java_major() {
  # Prints the feature version of the java binary given, e.g. 25, or nothing. Reads the JDK's
  # release file when there is one: starting a JVM just to ask costs a noticeable part of a second.
  local release="${1%/bin/java}/release" v
  if [ -f "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
    if [ -n "$v" ]; then
      echo "$v"
      return
    fi
  fi
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

brain_find_jdk() {
  local candidates=() c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    c=$(readlink -f "$(command -v java)")
    candidates+=("${c%/bin/java}")
  fi
  for c in /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
    /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$c" ] && candidates+=("$c")
  done
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    major=$(brain_java_major "$c/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      export JAVA_HOME="$c"
      return 0
    fi
  done
  cat >&2 <<MSG
brain: no JDK 21 or newer found (looked at JAVA_HOME, java on PATH and /usr/lib/jvm).
brain: install one, e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+ from adoptium.net,
brain: or point JAVA_HOME at it.
MSG
  return 1
}
