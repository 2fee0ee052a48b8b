// Voice recordings for tests, made in memory: a sine tone as 16-bit PCM WAV at a chosen peak level
// (dBFS) and length. A 440 Hz tone peaking at -20 dBFS measures about -23 LUFS, loud enough to clone
// from and far from clipping; one peaking at -60 dBFS is mostly room noise.
export function makeToneWav({ seconds, peakDbfs, sampleRate = 16_000, hz = 440 }: { seconds: number; peakDbfs: number; sampleRate?: number; hz?: number }) {
  const samples = Math.round(seconds * sampleRate);
  const amplitude = Math.round(32767 * 10 ** (peakDbfs / 20));
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate)), i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "latin1");
  header.write("fmt ", 12, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
