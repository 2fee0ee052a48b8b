;; The inner loop of in-app vector search (vector-index.ts): dot products of one query with many
;; rows, four lanes at a time (WebAssembly SIMD), two sums side by side so one addition need not
;; wait for the last. Rows and the query are float32, `dims` a multiple of 8 (vector-kernel.ts
;; pads them with zeros). Built into vector-kernel.wasm.ts by scripts/build-vector-kernel.mjs.
(module
  (memory (export "memory") 1)
  ;; out[i] = rows[i] . query, for `count` rows of `dims` floats starting at byte `rows`.
  (func (export "dots") (param $rows i32) (param $count i32) (param $dims i32) (param $query i32) (param $out i32)
    (local $stride i32) (local $qend i32) (local $end i32) (local $r i32) (local $q i32) (local $a v128) (local $b v128)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $qend (i32.add (local.get $query) (local.get $stride)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $r (local.get $rows))
        (local.set $q (local.get $query))
        (block $row_done
          (loop $lanes
            (br_if $row_done (i32.ge_u (local.get $q) (local.get $qend)))
            (local.set $a (f32x4.add (local.get $a) (f32x4.mul (v128.load (local.get $r)) (v128.load (local.get $q)))))
            (local.set $b (f32x4.add (local.get $b) (f32x4.mul (v128.load offset=16 (local.get $r)) (v128.load offset=16 (local.get $q)))))
            (local.set $r (i32.add (local.get $r) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $lanes)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $rows (i32.add (local.get $rows) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))
)
