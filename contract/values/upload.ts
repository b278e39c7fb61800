export const UPLOAD_MESSAGES = {
  tooLarge: '上传文件失败，请检查文件的大小，控制在 2MB 以内',
  notAnImage: '只能上传 PNG、JPEG、GIF 或 WebP 图片',
  tooManyPixels: '图片尺寸过大，宽和高不能超过 10000 像素，总像素不能超过 2500 万',
} as const;
