"""Small files on any Hadoop-compatible file system, through the Spark driver's JVM.

The campaign manifest, the reproducers and the reports go where the Parquet output
goes (``file:``, ``hdfs:``, ``s3a:``, ...), so they are written with Hadoop's
``FileSystem`` API over py4j rather than Python's ``open``.  Spark-only: needs a live
SparkContext (it does not import pyspark itself).
"""

from __future__ import annotations

from typing import Any


class HadoopFS:
    """File operations on the file system of ``root`` (a path or URI), qualified by Hadoop."""

    def __init__(self, sc: Any, root: str) -> None:
        self._jvm = sc._jvm
        self._conf = sc._jsc.hadoopConfiguration()
        path = self._jvm.org.apache.hadoop.fs.Path(root)
        self._fs = path.getFileSystem(self._conf)
        #: ``root`` made absolute with its scheme (``file:/home/me/cfconform-campaign``).
        self.root = str(self._fs.makeQualified(path)).rstrip("/")

    def path(self, *parts: str) -> str:
        return "/".join([self.root, *(p.strip("/") for p in parts if p)])

    def _p(self, path: str) -> Any:
        return self._jvm.org.apache.hadoop.fs.Path(path)

    def exists(self, path: str) -> bool:
        return bool(self._fs.exists(self._p(path)))

    def list_names(self, path: str, *, dirs_only: bool = False) -> list[str]:
        """Names (not paths) of the entries of directory ``path``; empty if it does not exist."""
        p = self._p(path)
        if not self._fs.exists(p):
            return []
        return sorted(str(s.getPath().getName()) for s in self._fs.listStatus(p) if not dirs_only or s.isDirectory())

    def read_text(self, path: str) -> str:
        stream = self._fs.open(self._p(path))
        try:
            data = self._jvm.org.apache.commons.io.IOUtils.toByteArray(stream)
        finally:
            stream.close()
        return bytes(data).decode("utf-8")

    def write_text(self, path: str, text: str) -> None:
        """Write ``text`` to ``path`` atomically where the file system renames atomically (temp + rename)."""
        target = self._p(path)
        temp = self._p(f"{target.getParent()}/.{target.getName()}.tmp")
        stream = self._fs.create(temp, True)
        try:
            stream.write(bytearray(text.encode("utf-8")))
        finally:
            stream.close()
        if self._fs.exists(target):
            self._fs.delete(target, False)
        if not self._fs.rename(temp, target):
            raise OSError(f"could not rename {temp} to {target}")

    def delete(self, path: str, recursive: bool = True) -> bool:
        return bool(self._fs.delete(self._p(path), recursive))

    def mkdirs(self, path: str) -> None:
        self._fs.mkdirs(self._p(path))

    def local_path(self, path: str) -> str:
        """``file:/x/y`` or ``file:///x/y`` -> ``/x/y`` (for messages and replay commands); other URIs unchanged."""
        for prefix in ("file://", "file:"):
            if path.startswith(prefix):
                return path[len(prefix) :]
        return path
