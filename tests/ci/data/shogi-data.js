window.BENCHMARK_DATA = {
  "lastUpdate": 1654216313997,
  "repoUrl": "https://github.com/rust-shogi-crates/shogi_legality_lite",
  "entries": {
    "Benchmark result (shogi_legality_lite)": [
      {
        "commit": {
          "id": "5b279f5c5a53eadb99a8c67cf6ac9f5e7cda28ce",
          "timestamp": "2022-05-31T22:48:20+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/5b279f5c5a53eadb99a8c67cf6ac9f5e7cda28ce"
        },
        "date": 1654005292277,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 1803718,
            "range": "± 17028",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 52850654,
            "range": "± 128506",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "1fa72a249cc700e91ff5f90191aab9c045f4ef98",
          "timestamp": "2022-05-31T22:58:27+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/1fa72a249cc700e91ff5f90191aab9c045f4ef98"
        },
        "date": 1654005599423,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 2161972,
            "range": "± 334700",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 63525999,
            "range": "± 3337720",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "0cffbe5e42025fda97c30f9ad5807f6790fce37e",
          "timestamp": "2022-06-01T00:00:46+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/0cffbe5e42025fda97c30f9ad5807f6790fce37e"
        },
        "date": 1654009351182,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 1655122,
            "range": "± 317336",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 50295943,
            "range": "± 5620451",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "65d460af3a80cf48bc72258ee54ec0108b04735e",
          "timestamp": "2022-06-01T00:06:49+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/65d460af3a80cf48bc72258ee54ec0108b04735e"
        },
        "date": 1654009682632,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 1194543,
            "range": "± 58286",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 35433726,
            "range": "± 46820",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "28c0f2db2a063c0239dc4077bf19848007738105",
          "timestamp": "2022-06-01T00:39:31+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/28c0f2db2a063c0239dc4077bf19848007738105"
        },
        "date": 1654011890649,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 920882,
            "range": "± 7415",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 27763138,
            "range": "± 45238",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "723b0f895e174dd1f0e18a5316f29d43db1125ca",
          "timestamp": "2022-06-01T22:06:36+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/723b0f895e174dd1f0e18a5316f29d43db1125ca"
        },
        "date": 1654088872429,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 1206474,
            "range": "± 161149",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 36187632,
            "range": "± 4250259",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "36d2bb00b04a0c8eaa2bdc555dc7b77b00c55adb",
          "timestamp": "2022-06-01T22:13:38+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/36d2bb00b04a0c8eaa2bdc555dc7b77b00c55adb"
        },
        "date": 1654089281656,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 666765,
            "range": "± 3078",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 20190491,
            "range": "± 57910",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "908c489899b47079ade064490d83b642aa6ebc12",
          "timestamp": "2022-06-01T22:32:37+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/908c489899b47079ade064490d83b642aa6ebc12"
        },
        "date": 1654090444178,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 635192,
            "range": "± 3920",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 19222370,
            "range": "± 50471",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "2c656963637d343ad038b4e23ad843dddbecd4eb",
          "timestamp": "2022-06-01T23:38:25+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/2c656963637d343ad038b4e23ad843dddbecd4eb"
        },
        "date": 1654094392276,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 539104,
            "range": "± 2546",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 16398040,
            "range": "± 72522",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "691fda829483d771e57998ce697048f753bfda48",
          "timestamp": "2022-06-02T09:56:43+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/691fda829483d771e57998ce697048f753bfda48"
        },
        "date": 1654131486998,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 445352,
            "range": "± 1853",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 12894247,
            "range": "± 19351",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "6c525a5e5cd73d90a3d5ec582dad9f8e5a94d2fd",
          "timestamp": "2022-06-02T10:02:53+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/6c525a5e5cd73d90a3d5ec582dad9f8e5a94d2fd"
        },
        "date": 1654132002903,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 573686,
            "range": "± 77535",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 16341312,
            "range": "± 1684390",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_4",
            "value": 463152489,
            "range": "± 22000372",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "7e3b5c8b446aabe76d6f8d617d0c7e43798d5c3a",
          "timestamp": "2022-06-02T12:42:50+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/7e3b5c8b446aabe76d6f8d617d0c7e43798d5c3a"
        },
        "date": 1654141651329,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 379642,
            "range": "± 2674",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 11117915,
            "range": "± 78373",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_4",
            "value": 313349966,
            "range": "± 2673794",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "5c578448c8f2b4f4882285b48f681a5ff5a040fb",
          "timestamp": "2022-06-03T02:06:22+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/5c578448c8f2b4f4882285b48f681a5ff5a040fb"
        },
        "date": 1654189760572,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 362354,
            "range": "± 634",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 10416110,
            "range": "± 8159",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_4",
            "value": 295525964,
            "range": "± 377163",
            "unit": "ns/iter"
          }
        ]
      },
      {
        "commit": {
          "id": "8b0cd9de774b0ffeb283c256a593871bdbffcee5",
          "timestamp": "2022-06-03T09:29:07+09:00",
          "url": "https://github.com/rust-shogi-crates/shogi_legality_lite/commit/8b0cd9de774b0ffeb283c256a593871bdbffcee5"
        },
        "date": 1654216313010,
        "tool": "cargo",
        "benches": [
          {
            "name": "perft::tests::bench_perft_2",
            "value": 354995,
            "range": "± 83632",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_3",
            "value": 9177004,
            "range": "± 1721979",
            "unit": "ns/iter"
          },
          {
            "name": "perft::tests::bench_perft_4",
            "value": 265365072,
            "range": "± 29400812",
            "unit": "ns/iter"
          }
        ]
      }
    ]
  }
}